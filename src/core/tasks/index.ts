// Facade of the simple-task rules and working-time arithmetic that the client, the CLI, the extension's
// form and the emulator all apply: the only module other layers import from src/core/tasks.
export * from './rules';
export * from './workTime';
