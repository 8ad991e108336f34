import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { useNavigate } from 'react-router';
import { Sparkles } from 'lucide-react';
import {
  JOB_NAMES,
  LIMITS,
  STYLE_PRESETS,
  toolContract,
  type JobName,
  type JobResultView,
} from '@imagestudio/contracts';
import { Button, EmptyState } from '../../../components';
import { TOOLS } from '../../../config/tools';
import { useStore } from '../../../stores';
import { JobStatus, runAnnouncement } from '../job-status';
import { NewRunButton } from '../new-run-button';
import { DownloadLink } from '../result-image';
import { RunPanel } from '../run-panel';
import { ToolLayout } from '../tool-layout';
import { useToolPage } from '../use-tool-page';
import { GenerateForm, emptyGenerateForm, generateBody, seedProblem, type GenerateFormValues } from './generate-form';

/** The tools a generated image can be handed to as their input: every tool that takes an image. */
const FOLLOW_UPS = JOB_NAMES.filter((tool) => toolContract(tool).takesImage);

/** /services/generate-image: prompt, count, size, style, advanced options; the results grid with follow-ups. */
export const GeneratePage = observer(function GeneratePage() {
  const { tools, settings, t } = useStore();
  const { run, startOver } = useToolPage('generate');
  const navigate = useNavigate();
  const sizes = settings.settings?.image_generation_sizes?.length
    ? settings.settings.image_generation_sizes
    : ['1024x1024'];
  const [form, setForm] = useState<GenerateFormValues>(() => emptyGenerateForm(sizes[0]!));
  const quote = tools.quote('generate', form.count);

  useEffect(() => {
    void tools.loadQuote('generate', form.count);
  }, [tools, form.count]);

  const blocker =
    form.prompt.trim() === ''
      ? t('client-tools.generate.promptRequired')
      : seedProblem(form.seed)
        ? t('client-tools.generate.seedInvalid')
        : null;
  // A fixed seed makes a repeat identical; without one every run draws new images.
  const fingerprint = form.seed.trim() !== '' ? JSON.stringify(form) : null;
  const start = () => void run.submit(generateBody(form, sizes), quote?.cost ?? 0, fingerprint);

  /** Hands a result to another tool as its input image. */
  const followUp = async (result: JobResultView, target: JobName) => {
    const ok = await tools.handOff(
      result.url,
      target,
      `generated-${run.job?.id.slice(0, 8) ?? 'image'}.${result.format === 'jpeg' ? 'jpg' : result.format}`,
    );
    if (ok) navigate(TOOLS[target].path);
  };

  const results = run.state?.status === 'succeeded' ? run.state.job.results : [];
  const canvas =
    results.length > 0 ? (
      <div className="results-grid" data-testid="results">
        {results.map((result, i) => (
          <figure key={result.url} className="result-card">
            <div className="result-card__frame">
              <img src={result.url} alt={t('client-tools.generate.resultAlt', { n: i + 1 })} />
            </div>
            <figcaption className="result-card__actions">
              <DownloadLink job={run.job!} index={i} />
              {FOLLOW_UPS.map((target) => {
                const Icon = TOOLS[target].icon;
                return (
                  <Button
                    key={target}
                    variant="ghost"
                    size="sm"
                    icon={<Icon aria-hidden="true" />}
                    onClick={() => void followUp(result, target)}
                  >
                    {t(`client-tools.tool.${target}`)}
                  </Button>
                );
              })}
            </figcaption>
          </figure>
        ))}
      </div>
    ) : (
      <>
        <JobStatus run={run} />
        {!run.state || run.state.status !== 'failed' ? (
          <EmptyState icon={<Sparkles aria-hidden="true" />} text={t('client-tools.generate.empty')} />
        ) : null}
      </>
    );

  return (
    <ToolLayout
      title={t('client-tools.generate.title')}
      lead={t('client-tools.generate.lead')}
      canvas={canvas}
      activity={run.activity}
      announcement={runAnnouncement(t, run)}
      controls={
        <>
          <GenerateForm
            values={form}
            onChange={setForm}
            sizes={sizes}
            styles={STYLE_PRESETS}
            disabled={run.busy}
            maxPrompt={LIMITS.promptMaxLength}
          />
          <RunPanel
            tool="generate"
            label={t('client-tools.generate.run')}
            cost={quote?.cost}
            blocker={blocker}
            fingerprint={fingerprint}
            onRun={start}
          />
          <NewRunButton run={run} onClick={startOver} />
        </>
      }
    />
  );
});
