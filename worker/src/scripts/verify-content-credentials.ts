/**
 * `npm run credentials:verify -- <image> [--trust <anchors.pem>]...`: reads the C2PA manifest embedded in a result,
 * checks its signature and hashes with the library the worker signs with, and says whether the signing chain
 * reaches one of the PEM trust anchors given (the development root is data/content-credentials/dev-root.pem).
 * Offline. Exit status 0 when nothing failed, 1 otherwise. docs/content-credentials.md explains the output.
 */
import fs from 'node:fs';
import { pemCertificates } from '../content-credentials/certificates';
import { readContentCredentials } from '../content-credentials/reader';

const args = process.argv.slice(2);
const files: string[] = [];
const anchors: Buffer[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--trust') anchors.push(...pemCertificates(fs.readFileSync(args[++i] ?? '', 'utf8')));
  else files.push(args[i]!);
}
if (files.length !== 1) {
  console.error('usage: npm run credentials:verify -- <image> [--trust <anchors.pem>]...');
  process.exit(2);
}

readContentCredentials(fs.readFileSync(files[0]!), anchors)
  .then((report) => {
    const { manifest } = report;
    console.log(
      JSON.stringify(
        {
          format: report.format,
          manifest: manifest && { ...manifest, certificates: `${manifest.certificates.length} (DER, not shown)` },
          trusted: report.trusted,
          failures: report.failures,
          statuses: report.statuses.map((s) => `${s.success ? 'ok  ' : 'FAIL'} ${s.code}`),
        },
        null,
        2,
      ),
    );
    if (!manifest) console.error('no C2PA manifest in this file');
    process.exitCode = manifest && report.failures.length === 0 ? 0 : 1;
  })
  .catch((err: unknown) => {
    console.error(`not verified: ${(err as Error).message}`);
    process.exitCode = 1;
  });
