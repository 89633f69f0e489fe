// stdout carries only the reply (engine-io writes it with process.stdout.write); DBOS logs and
// reports migrations with console.log, so console output goes to stderr. Imported first.
console.log = console.error;
console.info = console.error;
console.debug = console.error;
