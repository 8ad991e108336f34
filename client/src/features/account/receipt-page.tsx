import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useParams } from 'react-router';
import { Download, Printer } from 'lucide-react';
import { endpoints, type ReceiptDocument } from '@imagestudio/contracts';
import { Button, Card, PageSpinner } from '../../components';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api/api-error';
import { useStore } from '../../stores';
import './receipt.css';

/**
 * /account/payments/{id}/receipt: one payment's receipt in the reader's language, as the API words and
 * formats it (the PDF invoice is drawn from the same document), with Print and a PDF download. Printing
 * leaves out the site's header, footer and these buttons.
 */
export const ReceiptPage = observer(function ReceiptPage() {
  const { api, languages, t } = useStore();
  const { depositId = '' } = useParams();
  const lang = languages.activeId;
  const [state, setState] = useState<{ doc: ReceiptDocument } | { error: string } | null>(null);

  useEffect(() => {
    let live = true;
    setState(null);
    api
      .call(endpoints.payments.receipt, { params: { depositId } }, { skipErrorHandling: true })
      .then((reply) => live && setState({ doc: reply.payload }))
      .catch((err: unknown) => live && setState({ error: messageOf(err, t('client-payments.receipt.failed')) }));
    return () => {
      live = false;
    };
  }, [api, depositId, lang, t]);

  if (!state) return <PageSpinner label={t('client-payments.receipt.loading')} />;
  const back = (
    <Link to={paths.account.paymentHistory} className="receipt__back">
      {t('client-payments.receipt.back')}
    </Link>
  );
  if ('error' in state)
    return (
      <div className="container receipt">
        <p role="alert">{state.error}</p>
        {back}
      </div>
    );
  const { doc } = state;
  const pdf = `${api.baseURL}/user/payment-history/${encodeURIComponent(depositId)}/invoice.pdf${lang ? `?lang_id=${lang}` : ''}`;
  return (
    <div className="container receipt">
      <nav className="receipt__actions" aria-label={t('client-payments.receipt.actions')}>
        {back}
        <Button variant="secondary" icon={<Printer aria-hidden="true" />} onClick={() => window.print()}>
          {t('client-payments.receipt.print')}
        </Button>
        <a className="btn btn--primary btn--md" href={pdf} download data-testid="invoice-pdf">
          <Download aria-hidden="true" />
          <span>{t('client-payments.receipt.pdf')}</span>
        </a>
      </nav>
      <Card className="receipt__sheet" lang={doc.lang}>
        <h1>{doc.title}</h1>
        <dl className="receipt__facts">
          {[doc.invoice, doc.order, doc.date].map((fact) => (
            <div key={fact.label}>
              <dt>{fact.label}</dt>
              <dd>{fact.value}</dd>
            </div>
          ))}
        </dl>
        <div className="receipt__parties">
          {[doc.seller, doc.buyer].map((party) => (
            <section key={party.heading}>
              <h2>{party.heading}</h2>
              <address>
                {party.lines.map((line, i) => (
                  <span key={i}>{line}</span>
                ))}
              </address>
            </section>
          ))}
        </div>
        <table className="receipt__lines">
          <tbody>
            {doc.rows.map((row) => (
              <tr key={row.key} data-line={row.key} className={row.key === 'total' ? 'receipt__total' : undefined}>
                <th scope="row">{row.label}</th>
                <td>{row.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </div>
  );
});
