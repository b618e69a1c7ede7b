// Loaded with `node --import` by test/e2e/cli-startup.test.ts: records the URL of every module the process loads
// (through the module hooks, in their own thread) to the file named by PIE_TEST_LOADED_FILE, one a line.
import { register } from 'node:module';

const target = process.env.PIE_TEST_LOADED_FILE;
if (target) {
  const hooks = `
    import { appendFileSync } from 'node:fs';
    export async function load(url, context, next) {
      appendFileSync(${JSON.stringify(target)}, url + '\\n');
      return next(url, context);
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
