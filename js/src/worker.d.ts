// Declarations for import 'editcore/worker' (declared once in worker.d.cts).
export * from './worker.cjs';
