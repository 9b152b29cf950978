// The tenant's language ids: the neutral language (32 zeros, real-service-notes) and the three the emulator knows.
export const NEUTRAL_LANGUAGE = '00000000000000000000000000000000';
export const EN_US = 'c2bd4f9bbb954bcb80c31e924c9c26dc';
export const DE_DE = '3b8ab1a3c5c84b4b9a3a1b2c3d4e5f60';
export const FR_FR = '7f1e2d3c4b5a49688776655443322110';
