import { Worker } from 'node:worker_threads';
import type { SigningMaterial } from './certificates';
import type { LibraryPaths } from './library';

/**
 * The C2PA work runs in a thread of its own: c2pa-ts can only be loaded with import() (library.ts), which the
 * worker's CommonJS under jest cannot do, and hashing a large result, CBOR and the signature stay off the event
 * loop that renews the jobs' locks. One long-lived thread serves every job; requests carry an id.
 */

/** What to put in one manifest: plain data, so that it crosses to the thread. */
export interface ManifestPlan {
  format: 'image/png' | 'image/jpeg';
  /** The result's own instance id (xmp:iid:<uuid>). */
  instanceId: string;
  /** The claim generator: this worker and its version. */
  generator: { name: string; version: string };
  ingredients: IngredientPlan[];
  actions: ActionPlan[];
}

export interface IngredientPlan {
  title: string;
  format: string;
  relationship: 'parentOf';
  instanceId: string;
  metadata?: Record<string, unknown>;
}

export interface ActionPlan {
  action: string;
  digitalSourceType?: string;
  softwareAgent?: { name: string; version?: string };
  /** Index into the plan's ingredients: the action's `parameters.ingredients` then references that assertion. */
  ingredient?: number;
}

/** What the thread read from a file: c2pa-ts's verdict and the active manifest's contents. */
export interface RawReport {
  /** The file kind c2pa-ts read (null: not one it reads, e.g. WebP). */
  format: 'image/png' | 'image/jpeg' | null;
  manifest: null | {
    label: string;
    generator: { name: string; version?: string };
    instanceId: string;
    actions: { action: string; digitalSourceType?: string; softwareAgent?: string; ingredients: string[] }[];
    ingredients: {
      label: string;
      title?: string;
      format?: string;
      relationship?: string;
      instanceId?: string;
      metadata?: Record<string, unknown>;
    }[];
    /** DER, the signing certificate first. */
    certificates: Uint8Array[];
  };
  valid: boolean;
  statuses: { code: string; url?: string; explanation?: string; success: boolean }[];
}

// Plain JavaScript, started with eval so that it runs the same under tsx, jest and the esbuild bundle.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const crypto = require('node:crypto');
const { pathToFileURL } = require('node:url');
const x509 = require(workerData.paths.x509);
const lib = Promise.all(['asset', 'jumbf', 'manifest'].map((s) => import(pathToFileURL(workerData.paths.c2pa[s]).href)));
// A library that fails to load is each request's error (awaited there), not an unhandled rejection killing the thread.
lib.catch(() => undefined);
const { material } = workerData;
// c2pa-ts 0.9.4's own signer writes ECDSA signatures DER-encoded; COSE (and c2pa-rs) want r|s, so this one signs.
const signer = material && makeSigner(material);
function makeSigner({ chain, keyPkcs8, algorithm: alg }) {
  const key = crypto.createPrivateKey({ key: Buffer.from(keyPkcs8), format: 'der', type: 'pkcs8' });
  return {
    algorithm: alg.cose,
    certificate: new x509.X509Certificate(new Uint8Array(chain[0])),
    chainCertificates: chain.slice(1).map((der) => new x509.X509Certificate(new Uint8Array(der))),
    sign: async (payload) => {
      const options = { key };
      if (alg.ecdsa) options.dsaEncoding = 'ieee-p1363';
      if (alg.pss) Object.assign(options, { padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
      return new Uint8Array(crypto.sign(alg.hash, payload, options));
    },
  };
}

async function sign({ bytes, plan }) {
  if (!signer) throw new Error('this thread has no signing key');
  const [{ JPEG, PNG }, , M] = await lib;
  const data = new Uint8Array(bytes);
  const asset = plan.format === 'image/png' ? new PNG(data) : new JPEG(data);
  const store = new M.ManifestStore();
  // A 2.x claim (c2pa.claim.v2, ClaimVersion.V2 = 1): the version C2PA 2.1 asks new manifests to use.
  const manifest = store.createManifest({
    assetFormat: plan.format, instanceID: plan.instanceId, defaultHashAlgorithm: 'SHA-256', signer, claimVersion: 1,
  });
  manifest.claim.claimGeneratorName = plan.generator.name;
  manifest.claim.claimGeneratorVersion = plan.generator.version;
  const references = plan.ingredients.map((ingredient) => {
    const assertion = M.IngredientAssertion.createV3(ingredient.relationship);
    assertion.title = ingredient.title;
    assertion.format = ingredient.format;
    assertion.instanceID = ingredient.instanceId;
    if (ingredient.metadata) assertion.metadata = ingredient.metadata;
    manifest.addAssertion(assertion);
    return manifest.createAssertionReference(assertion);
  });
  const actions = new M.ActionAssertion();
  actions.actions = plan.actions.map(({ ingredient, ...action }) =>
    ingredient === undefined ? action : { ...action, parameters: { ingredients: [references[ingredient]] } });
  manifest.addAssertion(actions);
  const binding = M.DataHashAssertion.create('SHA-256');
  manifest.addAssertion(binding);
  await asset.ensureManifestSpace(store.measureSize());
  await binding.updateWithAsset(asset);
  await manifest.sign(signer);
  await asset.writeManifestJUMBF(store.getBytes());
  const out = await asset.getDataRange();
  return { value: out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength), transfer: true };
}

async function read({ bytes }) {
  const [{ JPEG, PNG }, { SuperBox }, M] = await lib;
  const data = new Uint8Array(bytes);
  const asset = PNG.canRead(data) ? new PNG(data) : JPEG.canRead(data) ? new JPEG(data) : undefined;
  if (!asset) return { value: { format: null, manifest: null, valid: false, statuses: [] } };
  const jumbf = asset.getManifestJUMBF();
  if (!jumbf) return { value: { format: asset.mimeType, manifest: null, valid: false, statuses: [] } };
  let store;
  let result;
  try {
    store = M.ManifestStore.read(SuperBox.fromBuffer(jumbf));
    result = await store.validate(asset);
  } catch (err) {
    result = M.ValidationResult.fromError(err);
  }
  const statuses = result.statusEntries.map((e) => ({ code: e.code, url: e.url, explanation: e.explanation, success: !!e.success }));
  const m = store && store.getActiveManifest();
  return { value: { format: asset.mimeType, manifest: m ? describe(m) : null, valid: result.isValid, statuses } };
}

function describe(m) {
  const assertions = (m.assertions && m.assertions.assertions) || [];
  const signature = m.signature && m.signature.signatureData;
  const certificates = signature && signature.certificate
    ? [signature.certificate, ...(signature.chainCertificates || [])].map((c) => new Uint8Array(c.rawData))
    : [];
  return {
    label: m.label,
    generator: { name: m.claim.claimGeneratorName, version: m.claim.claimGeneratorVersion },
    instanceId: m.claim.instanceID,
    actions: assertions.filter((a) => Array.isArray(a.actions)).flatMap((a) => a.actions.map((x) => ({
      action: x.action,
      digitalSourceType: x.digitalSourceType,
      softwareAgent: x.softwareAgent && x.softwareAgent.name,
      ingredients: ((x.parameters && x.parameters.ingredients) || []).map((r) => r.uri),
    }))),
    ingredients: assertions.filter((a) => a.relationship !== undefined).map((a) => ({
      label: a.fullLabel, title: a.title, format: a.format, relationship: a.relationship, instanceId: a.instanceID, metadata: a.metadata,
    })),
    certificates,
  };
}

parentPort.on('message', async (msg) => {
  try {
    const { value, transfer } = await (msg.op === 'sign' ? sign(msg) : read(msg));
    parentPort.postMessage({ id: msg.id, ok: true, value }, transfer ? [value] : []);
  } catch (err) {
    parentPort.postMessage({ id: msg.id, ok: false, error: String((err && err.stack) || err) });
  }
});
`;

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** The thread and its pending requests; a thread that dies fails them and is started again on the next one. */
export class C2paThread {
  private thread: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly paths: LibraryPaths,
    /** Absent for a thread that only reads. */
    private readonly material?: SigningMaterial,
  ) {}

  /** The file with a signed manifest embedded (PNG or JPEG only: the caller checks the format). */
  async sign(bytes: Buffer, plan: ManifestPlan): Promise<Buffer> {
    const out = (await this.request('sign', bytes, { plan })) as ArrayBuffer;
    return Buffer.from(out);
  }

  /** Reads and validates the manifest embedded in a file (no trust decision: see reader.ts). */
  read(bytes: Buffer): Promise<RawReport> {
    return this.request('read', bytes, {}) as Promise<RawReport>;
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    if (thread) await thread.terminate();
  }

  private request(op: 'sign' | 'read', bytes: Buffer, extra: object): Promise<unknown> {
    const thread = this.started();
    const id = this.nextId++;
    // The thread gets its own copy of the file, transferred.
    const copy = new Uint8Array(bytes).buffer;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      thread.ref();
      thread.postMessage({ op, id, bytes: copy, ...extra }, [copy]);
    });
  }

  private started(): Worker {
    if (this.thread) return this.thread;
    const m = this.material;
    const material = m ? { chain: m.chain, keyPkcs8: m.keyPkcs8, algorithm: m.algorithm } : null;
    const thread = new Worker(THREAD_SOURCE, { eval: true, workerData: { paths: this.paths, material } });
    thread.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      // Idle, the thread does not keep the process alive.
      if (this.pending.size === 0) thread.unref();
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(new Error(`content credentials: ${reply.error}`));
    });
    const fail = (err: Error) => {
      if (this.thread === thread) this.thread = null;
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
    };
    thread.on('error', fail);
    thread.on('exit', (code) => fail(new Error(`content credentials thread exited with code ${code}`)));
    thread.unref();
    this.thread = thread;
    return thread;
  }
}
