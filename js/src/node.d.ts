// Declarations for import 'editcore/node' (declared once in node.d.cts).
export * from './node.cjs';
