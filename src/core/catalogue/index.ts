// Facade of the service catalogue (STYLE 16): the one description of the service's surface, with sources.
export * from './model';
export { catalogue, readRoutes } from './data';
