import type { AdapterPayload } from 'oidc-provider';

/**
 * How long a client's registration is answered from memory at most. Changes are announced the moment
 * they commit (client-changes.ts), so this bounds only a listener that died without a word (a
 * connection silently dropped by the network): its health check finds that within seconds, and no
 * entry outlives this even if it never did.
 */
export const CLIENT_CACHE_TTL_MS = 30_000;

/** Registrations held at most; the oldest goes first. Relying parties are a handful of products. */
export const CLIENT_CACHE_MAX_ENTRIES = 1_000;

interface Entry {
  /**
   * The registration as JSON text (it is JSON: OpenID Connect client metadata, clients.ts); each read
   * parses its own copy, which costs a quarter of a structured clone of the object.
   */
  readonly json: string;
  /** When the read that stored it began: an entry is never younger than the row it holds. */
  readonly readAt: number;
}

/**
 * The registrations oidc-provider reads at each protocol request (authorize, resume, token), kept
 * across requests so a flow does not read the same row three times. Safe only while it hears of every
 * change: it answers from memory only while `enable`d, which the change listener does once it
 * listens and undoes the moment it loses its connection (whatever was held is dropped then, since
 * changes may have gone unheard). Off, every read goes to the database, as without a cache.
 *
 * - A change (heard, or made by this process: `forget` after its commit) drops the client's entry, and
 *   a read that was under way meanwhile does not store what it read (the epoch moved on), so an
 *   answer read before a commit cannot outlive its announcement.
 * - Only registrations found are kept: an unknown id is asked again each time, so a client added a
 *   moment ago is found at once.
 * - Each caller gets its own copy: what the provider builds from one answer never changes the next.
 */
export class ClientCache {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;
  #epoch = 0;
  #on = false;

  /** `now`: a monotonic clock in milliseconds (tests pass their own). */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Whether answers come from memory (the change listener is up). */
  get enabled(): boolean {
    return this.#on;
  }

  /** Entries held now. */
  get size(): number {
    return this.#entries.size;
  }

  /** The registration of `clientId`: from memory when held and fresh, else `load`ed (and kept). */
  async read(
    clientId: string,
    load: () => Promise<AdapterPayload | undefined>,
  ): Promise<AdapterPayload | undefined> {
    const readAt = this.#now();
    // Nothing is held while disabled (disable drops it all, #keep keeps nothing then).
    const entry = this.#entries.get(clientId);
    if (entry && readAt - entry.readAt < CLIENT_CACHE_TTL_MS) return JSON.parse(entry.json) as AdapterPayload;
    // Expired: gone now, even should the client be gone too and nothing replace it.
    this.#entries.delete(clientId);
    const epoch = this.#epoch;
    const payload = await load();
    if (payload !== undefined && this.#on && epoch === this.#epoch) this.#keep(clientId, payload, readAt);
    return payload;
  }

  /** The client changed: its entry goes, and no read under way stores what it read. */
  forget(clientId: string): void {
    // Stryker disable next-line UpdateOperator: any move of the epoch tells a read under way it overlapped a change
    this.#epoch++;
    this.#entries.delete(clientId);
  }

  /** Every client may have changed. */
  forgetAll(): void {
    // Stryker disable next-line UpdateOperator: any move of the epoch tells a read under way it overlapped a change
    this.#epoch++;
    this.#entries.clear();
  }

  /** The listener hears every change from now on: answers may come from memory. */
  enable(): void {
    this.forgetAll();
    this.#on = true;
  }

  /** Changes may go unheard: every read goes to the database until `enable`d again. */
  disable(): void {
    this.#on = false;
    this.forgetAll();
  }

  /** Kept after a miss, so `clientId` is not held: a new entry, the last in the Map's order. */
  #keep(clientId: string, payload: AdapterPayload, readAt: number): void {
    if (this.#entries.size >= CLIENT_CACHE_MAX_ENTRIES) {
      const [oldest] = this.#entries.keys();
      // Stryker disable next-line ConditionalExpression: a full Map has a first key; the guard is for the type
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(clientId, { json: JSON.stringify(payload), readAt });
  }
}
