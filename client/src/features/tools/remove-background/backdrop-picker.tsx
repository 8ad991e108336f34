import { useStore } from '../../../stores';

export type Backdrop = 'checker' | 'white' | 'black' | 'color';

const COLORS: Record<Exclude<Backdrop, 'checker' | 'color'>, string> = { white: '#ffffff', black: '#000000' };

/** The CSS colour behind a transparent result for a backdrop choice; null for the checkerboard. */
export function backdropColor(backdrop: Backdrop, color: string): string | null {
  if (backdrop === 'checker') return null;
  return backdrop === 'color' ? color : COLORS[backdrop];
}

/**
 * What shows behind a transparent result on screen: checkerboard, white, black or a picked colour. It
 * changes only the view; the downloaded file is what the job made.
 */
export function BackdropPicker({
  value,
  color,
  onChange,
  onColor,
}: {
  value: Backdrop;
  color: string;
  onChange(next: Backdrop): void;
  onColor(next: string): void;
}) {
  const { t } = useStore();
  const options: Backdrop[] = ['checker', 'white', 'black', 'color'];
  return (
    <div className="backdrop-picker" data-testid="backdrop-picker">
      <div className="segmented" role="group" aria-label={t('client-tools.backdrop.label')}>
        {options.map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={value === option}
            onClick={() => onChange(option)}
            data-backdrop={option}
          >
            {t(`client-tools.backdrop.${option}`)}
          </button>
        ))}
      </div>
      {value === 'color' ? (
        <input
          type="color"
          value={color}
          aria-label={t('client-tools.backdrop.colorPicker')}
          onChange={(e) => onColor(e.target.value)}
        />
      ) : null}
    </div>
  );
}
