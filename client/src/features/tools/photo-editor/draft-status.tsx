import { Button } from '../../../components';
import { useT } from '../../../stores';
import type { DraftState } from './matte-draft';

const DRAFT_TEXT = {
  saved: 'client-tools.editor.draftSaved',
  pending: 'client-tools.editor.draftSaving',
  saving: 'client-tools.editor.draftSaving',
  failed: 'client-tools.editor.draftFailed',
} as const satisfies Record<DraftState, string>;

/** Where saving the strokes' draft stands, with a retry when it failed. */
export function DraftStatus({ state, onRetry }: { state: DraftState; onRetry(): void }) {
  const t = useT();
  return (
    <p
      className={`photo-editor__note${state === 'failed' ? ' notice notice--error' : ''}`}
      role="status"
      data-testid="draft-state"
      data-state={state}
    >
      {t(DRAFT_TEXT[state])}{' '}
      {state === 'failed' ? (
        <Button variant="ghost" onClick={onRetry}>
          {t('client-tools.editor.draftRetry')}
        </Button>
      ) : null}
    </p>
  );
}
