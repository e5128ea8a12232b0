/** Where a CLI command writes (the console, or a test's lines). */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** A command called wrongly: its usage is printed, exit status 2. */
export class UsageError extends Error {}

export interface ParsedArgs {
  positional: string[];
  options: Map<string, string>;
}

/** A command's arguments: positionals, and the `--name value` / `--name=value` it allows. */
export function parseArgs(args: string[], allowed: string[]): ParsedArgs {
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
      if (!allowed.includes(name)) throw new UsageError(`unknown option --${name}`);
      const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      options.set(name, value);
    } else {
      positional.push(arg);
    }
  }
  return { positional, options };
}

/** Exactly `count` positionals, else the usage. */
export function positionals(p: ParsedArgs, count: number, usage: string) {
  if (p.positional.length !== count) throw new UsageError(`usage: parley ${usage}`);
  return p.positional;
}

/** An option the command cannot do without, else the usage. */
export function required(p: ParsedArgs, name: string, usage: string) {
  const value = p.options.get(name);
  if (value === undefined) throw new UsageError(`usage: parley ${usage}`);
  return value;
}
