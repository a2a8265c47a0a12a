/** One shipped component of the open-source notice (emitted by the build as /licenses.json). */
export interface ComponentLicense {
  readonly name: string;
  readonly version: string;
  readonly license: string;
}

function isComponentLicense(value: unknown): value is ComponentLicense {
  if (typeof value !== 'object' || value === null) return false;
  const { name, version, license } = value as Record<string, unknown>;
  return typeof name === 'string' && typeof version === 'string' && typeof license === 'string';
}

/** The licence list beside the SPA (site root, not the identity service); rejects on a wrong shape. */
export async function loadLicenses(fetchImpl: typeof fetch = globalThis.fetch): Promise<ComponentLicense[]> {
  const response = await fetchImpl(`${import.meta.env.BASE_URL}licenses.json`);
  if (!response.ok) throw new Error(`licenses.json: HTTP ${response.status}`);
  const json: unknown = await response.json();
  if (!Array.isArray(json) || !json.every(isComponentLicense))
    throw new Error('licenses.json: unexpected shape');
  return json;
}
