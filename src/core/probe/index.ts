// Facade of the probe (`dam tenant probe`, DAM: Compare the Emulator with This Tenant…): the shape of a service's
// answers without their values, the routes a probe asks, and two probes compared in words.
export * from './shape';
export * from './compare';
export * from './routes';
export * from './report';
