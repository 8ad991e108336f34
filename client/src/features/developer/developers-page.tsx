import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { Copy } from 'lucide-react';
import { Badge, Button, Card, Skeleton } from '../../components';
import { paths } from '../../config/paths';
import { useStore } from '../../stores';
import { SwitchingFromRemoveBg } from './switching-from-removebg';
import './developer.css';
import { ToolsOffNotice } from '../availability';

interface OpenApiOperation {
  summary: string;
  security: Array<Record<string, string[]>>;
  'x-audience'?: 'operator';
}
interface OpenApiDocument {
  servers: Array<{ url: string }>;
  /** A path item: its operations by method, and `servers` where it is served outside /api (the /v1.0 routes). */
  paths: Record<string, Record<string, unknown> & { servers?: Array<{ url: string }> }>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

/** The examples: one synchronous background removal, with curl and with JavaScript's fetch. */
function examples(base: string): Array<{ title: string; code: string }> {
  return [
    {
      title: 'curl',
      code: [
        `curl -X POST "${base}/tools/remove-background?wait=30" \\`,
        `  -H "Authorization: Bearer $IMAGESTUDIO_KEY" \\`,
        `  -H "Accept: image/png" \\`,
        `  -F image=@photo.jpg -o cutout.png`,
        ``,
        `curl "${base}/user/ledger" -H "X-Api-Key: $IMAGESTUDIO_KEY"`,
      ].join('\n'),
    },
    {
      title: 'JavaScript',
      code: [
        `const form = new FormData();`,
        `form.append('image', new Blob([await fs.promises.readFile('photo.jpg')]), 'photo.jpg');`,
        `form.append('factor', '2');`,
        `form.append('callback_url', 'https://example.com/hooks/imagestudio');`,
        `const res = await fetch('${base}/tools/upscale?wait=60', {`,
        `  method: 'POST',`,
        `  headers: { Authorization: \`Bearer \${process.env.IMAGESTUDIO_KEY}\` },`,
        `  body: form,`,
        `});`,
        `const { status, payload: job } = await res.json(); // 200: ended, 202: still running`,
        `console.log(status, job.status, job.results[0]?.url);`,
      ].join('\n'),
    },
  ];
}

/** Copies an example to the clipboard and says so on the button until another example is copied. */
function CopyExample({ name, code }: { name: string; code: string }) {
  const { t } = useStore();
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(code).then(() => setCopied(true));
  };
  return (
    <Button
      variant="secondary"
      size="sm"
      icon={<Copy aria-hidden="true" />}
      onClick={copy}
      data-testid={`copy-${name}`}
    >
      {copied ? t('client-developer.keys.copied') : t('client-developer.keys.copy')}
      {/* Which example, for screen readers; the visible word stays the start of the name. */}
      <span className="visually-hidden"> {t('client-developer.docs.copyExample', { name })}</span>
    </Button>
  );
}

const authLabel = (op: OpenApiOperation) =>
  op.security.some((s) => 'bearer' in s || 'removeBgApiKey' in s)
    ? 'API key'
    : op.security.length > 0
      ? 'Session'
      : 'Public';

/** /developers: how to call the API, and the reference rendered from GET /api/openapi.json. */
export const DevelopersPage = observer(function DevelopersPage() {
  const { api, t } = useStore();
  const [doc, setDoc] = useState<OpenApiDocument | null>(null);
  const [failed, setFailed] = useState(false);
  const specUrl = `${api.baseURL}/openapi.json`;

  useEffect(() => {
    let live = true;
    fetch(specUrl)
      .then((res) =>
        res.ok ? (res.json() as Promise<OpenApiDocument>) : Promise.reject(new Error(String(res.status))),
      )
      .then(
        (d) => live && setDoc(d),
        () => live && setFailed(true),
      );
    return () => {
      live = false;
    };
  }, [specUrl]);

  const base = doc?.servers[0]?.url ?? `${window.location.origin}/api`;
  const site = base.replace(/\/api$/, '');
  const byTag = new Map<string, Array<{ method: string; path: string; op: OpenApiOperation }>>();
  for (const [route, item] of Object.entries(doc?.paths ?? {})) {
    // Paths are relative to /api unless the path item names its own server (the remove.bg-compatible /v1.0 routes).
    const path = item.servers ? route : `/api${route}`;
    for (const [method, value] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const op = value as OpenApiOperation & { tags: string[] };
      // Probes, metrics and the payment provider's routes are the operator's, not part of the customer reference.
      if (op['x-audience'] === 'operator') continue;
      const tag = op.tags[0] ?? '';
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
    }
  }

  return (
    <div className="container developers">
      <h1>{t('client-developer.docs.title')}</h1>
      <ToolsOffNotice />
      <p className="developer-lead">{t('client-developer.docs.lead')}</p>
      <Card className="developers__section">
        <h2>{t('client-developer.docs.auth')}</h2>
        <p>
          {t('client-developer.docs.authText')}{' '}
          <Link to={paths.account.apiKeys}>{t('client-developer.tabs.apiKeys')}</Link>
        </p>
      </Card>
      <Card className="developers__section">
        <h2>{t('client-developer.docs.examples')}</h2>
        {examples(base).map((ex) => (
          <div key={ex.title} className="developers__example">
            <div className="developers__example-head">
              <h3>{ex.title}</h3>
              <CopyExample name={ex.title} code={ex.code} />
            </div>
            <pre className="code-block" data-testid={`example-${ex.title}`}>
              <code>{ex.code}</code>
            </pre>
          </div>
        ))}
      </Card>
      <SwitchingFromRemoveBg site={site} />
      <Card className="developers__section">
        <h2>{t('client-developer.docs.reference')}</h2>
        <p>
          <a href={specUrl}>{t('client-developer.docs.spec')}</a>
        </p>
        {failed ? <p role="alert">{t('client-developer.docs.loadFailed')}</p> : null}
        {!doc && !failed ? <Skeleton height={200} /> : null}
        {[...byTag.entries()].map(([tag, ops]) => (
          <section key={tag} className="developers__tag">
            <h3>{tag}</h3>
            <ul className="operation-list">
              {ops.map(({ method, path, op }) => (
                <li key={`${method} ${path}`} data-testid="operation">
                  <code className={`method method--${method}`}>{method.toUpperCase()}</code>
                  <code>{path}</code>
                  <span>{op.summary}</span>
                  <Badge tone={authLabel(op) === 'API key' ? 'success' : 'neutral'}>{authLabel(op)}</Badge>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </Card>
    </div>
  );
});
