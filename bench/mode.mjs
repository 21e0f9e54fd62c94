// Quick mode (BENCH_QUICK=1 or `npm run bench -- --quick`): the same code paths with far fewer
// iterations, so CI runs every bench on each change and a bench that breaks does not land. Its
// figures are too noisy to quote; only full runs go in the README.
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by the bench scripts only, never by a turbo task.
export const QUICK = process.env.BENCH_QUICK === '1' || process.argv.includes('--quick');

/** `full` iterations normally, `quick` in quick mode. */
export const scaled = (full, quick) => (QUICK ? quick : full);

// Processes a bench starts (servers, workers) see the mode too.
if (QUICK) process.env.BENCH_QUICK = '1';
