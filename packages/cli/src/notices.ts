// Notes a process owes the person running it that are not failures: today, a config change waiting
// for a person's acceptance (config-pin.ts). Found deep in config loading, they go to the sink the
// entry point chose — stderr for the CLI (main.ts), the host's user-visible message for a hook — once
// per process and text.
let sink: ((text: string) => void) | undefined;
const told = new Set<string>();

export function setNoticeSink(fn: ((text: string) => void) | undefined): void {
  sink = fn;
  told.clear();
}

export function notice(text: string): void {
  if (told.has(text)) return;
  told.add(text);
  sink?.(text);
}
