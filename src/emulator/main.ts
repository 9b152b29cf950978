// Placeholder entry of the emulator process; the service issues replace it with the real server.
process.stderr.write('dam emulator: not built yet\n');
process.exitCode = 1;
