// Declarations for import 'editcore': the same API as require('editcore'), declared once in index.d.cts.
export * from './index.cjs';
