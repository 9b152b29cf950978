// Facade of the tenant-configuration core (`dam tenant pull/diff/push`, `dam emulator --seed DIR`): the folder's
// model and files, comparing two configurations in words, and the push plan. Pure: callers do the I/O.
export * from './model';
export * from './folder';
export * from './compare';
export * from './plan';
export * from './convert';
export * from './pullRecord';
