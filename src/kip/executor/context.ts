import type { Embedder } from '../../ports/embedder.js';
import type { WorldStore } from '../../ports/world-store.js';
import { KipError } from '../errors.js';
import { Graph } from './graph.js';
import type { TypeRegistry } from './registry.js';
import type { KipWriter } from './write/writer.js';

export interface ExecOptions {
  /** Event and record time of writes (the PIE clock). */
  now: number;
  newId: () => string;
  embedder?: Embedder | undefined;
  /** Intermediate solutions allowed before KIP_4002. */
  maxSolutions: number;
  /** Wall-clock deadline (Date.now) before KIP_4001. */
  deadline: number;
}

/** What statement executors share: the store (or transaction), the schema, the cached graph, and limits. */
export class ExecContext {
  readonly graph: Graph;
  writer: KipWriter | null = null;

  constructor(
    readonly store: WorldStore,
    readonly registry: TypeRegistry,
    readonly options: ExecOptions,
  ) {
    this.graph = new Graph(store, registry);
  }

  get now(): number {
    return this.options.now;
  }

  /** Throws KIP_4002 past the solution limit and KIP_4001 past the deadline. */
  guard(count: number): void {
    if (count > this.options.maxSolutions) {
      throw new KipError(
        'KIP_4002',
        `The query produced more than ${this.options.maxSolutions} intermediate results.`,
        {
          hint: 'Constrain an endpoint (type and name, or id), add FILTERs earlier, or use LIMIT.',
        },
      );
    }
    if (Date.now() > this.options.deadline) {
      throw new KipError('KIP_4001', 'The command took longer than its time limit.', {
        hint: 'Constrain the patterns (bind a name or id first) or split the work.',
      });
    }
  }

  requireWriter(): KipWriter {
    if (!this.writer) throw new KipError('KIP_4003', 'A write ran outside its transaction.');
    return this.writer;
  }
}
