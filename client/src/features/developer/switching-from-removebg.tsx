import { observer } from 'mobx-react-lite';
import { Card } from '../../components';
import { useStore } from '../../stores';

/** The examples: remove.bg's own calls with only the base URL and the key changed. */
function examples(site: string): Array<{ title: string; code: string }> {
  return [
    {
      title: 'curl',
      code: [
        `curl -H "X-Api-Key: $IMAGESTUDIO_KEY" \\`,
        `  -F image_file=@photo.jpg -F size=auto \\`,
        `  -o no-bg.png ${site}/v1.0/removebg`,
      ].join('\n'),
    },
    {
      title: 'Node.js',
      code: [
        `const form = new FormData();`,
        `form.append('image_file', new Blob([await fs.promises.readFile('photo.jpg')]), 'photo.jpg');`,
        `form.append('size', 'auto');`,
        `const res = await fetch('${site}/v1.0/removebg', {`,
        `  method: 'POST',`,
        `  headers: { 'X-Api-Key': process.env.IMAGESTUDIO_KEY },`,
        `  body: form,`,
        `});`,
        `if (!res.ok) throw new Error(JSON.stringify(await res.json())); // {"errors":[{"title","code","detail"}]}`,
        `await fs.promises.writeFile('no-bg.png', Buffer.from(await res.arrayBuffer()));`,
        `console.log('charged', res.headers.get('X-Credits-Charged'));`,
      ].join('\n'),
    },
    {
      title: 'Python',
      code: [
        `import os, requests`,
        ``,
        `response = requests.post(`,
        `    "${site}/v1.0/removebg",`,
        `    files={"image_file": open("photo.jpg", "rb")},`,
        `    data={"size": "auto"},`,
        `    headers={"X-Api-Key": os.environ["IMAGESTUDIO_KEY"]},`,
        `)`,
        `response.raise_for_status()`,
        `open("no-bg.png", "wb").write(response.content)`,
      ].join('\n'),
    },
  ];
}

/** /developers: moving an integration written for remove.bg's API to ours (the /v1.0 routes). */
export const SwitchingFromRemoveBg = observer(function SwitchingFromRemoveBg({ site }: { site: string }) {
  const { t, settings } = useStore();
  const prices = settings.settings?.removebg_api_prices;
  return (
    <Card className="developers__section" data-testid="switching-from-removebg">
      <h2>{t('client-developer.removebg.title')}</h2>
      <p>{t('client-developer.removebg.lead')}</p>
      <pre className="code-block">
        <code>{`https://api.remove.bg/v1.0/removebg  ->  ${site}/v1.0/removebg`}</code>
      </pre>
      <h3>{t('client-developer.removebg.sameTitle')}</h3>
      <p>{t('client-developer.removebg.same')}</p>
      <h3>{t('client-developer.removebg.differsTitle')}</h3>
      <p>{t('client-developer.removebg.differs')}</p>
      {prices ? (
        <p data-testid="removebg-prices">
          {t('client-developer.removebg.prices')} preview {prices.preview} · medium {prices.medium} · hd {prices.hd} ·
          full {prices.full}
        </p>
      ) : null}
      {examples(site).map((ex) => (
        <div key={ex.title}>
          <h3>{ex.title}</h3>
          <pre className="code-block" data-testid={`removebg-example-${ex.title}`}>
            <code>{ex.code}</code>
          </pre>
        </div>
      ))}
    </Card>
  );
});
