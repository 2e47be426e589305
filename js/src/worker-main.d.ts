// editcore/worker-main: a ready worker (no exports).
export {};
