#!/usr/bin/env node
import { runCli } from '../src/serve/cli/run.js';
import { processIo } from '../src/serve/cli/io.js';

process.exitCode = await runCli(process.argv.slice(2), processIo());
