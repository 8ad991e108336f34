import {
  EXPAND_ASPECT_IDS,
  EXPAND_FACTORS,
  EXPAND_POSITIONS,
  type ExpandAspect,
  type ExpandChoice,
  type ExpandPosition,
} from '@imagestudio/contracts';
import { numberLocale } from '../../../lib/format';
import { useStore } from '../../../stores';

/** A shape ("16:9") or a factor ("1.5"), as one radio group offers them. */
export type CanvasOption = ExpandAspect | `${(typeof EXPAND_FACTORS)[number]}`;
export const CANVAS_OPTIONS: CanvasOption[] = [
  ...EXPAND_ASPECT_IDS,
  ...EXPAND_FACTORS.map((f) => `${f}` as CanvasOption),
];

const isAspect = (o: string): o is ExpandAspect => (EXPAND_ASPECT_IDS as string[]).includes(o);

/** The request's canvas fields for an option. */
export const canvasFields = (o: CanvasOption): Record<string, string> => (isAspect(o) ? { aspect: o } : { factor: o });

export const choiceOf = (o: CanvasOption, position: ExpandPosition): ExpandChoice =>
  isAspect(o) ? { aspect: o, position } : { factor: Number(o), position };

/** The canvas a finished job ran with (its stored params), which the options on screen may have left since. */
export function ranChoice(params: Record<string, unknown>): ExpandChoice | null {
  const position = (EXPAND_POSITIONS as readonly unknown[]).includes(params.position)
    ? (params.position as ExpandPosition)
    : 'center';
  if (isAspect(String(params.aspect))) return { aspect: params.aspect as ExpandAspect, position };
  return typeof params.factor === 'number' ? { factor: params.factor, position } : null;
}

/** The canvas choice: the shapes and factors in one radio group, and the photo's place on the canvas. */
export function CanvasPickers({
  option,
  position,
  onOption,
  onPosition,
}: {
  option: CanvasOption;
  position: ExpandPosition;
  onOption(option: CanvasOption): void;
  onPosition(position: ExpandPosition): void;
}) {
  const { t } = useStore();
  return (
    <>
      <fieldset className="field model-picker expand-picker" data-testid="canvas-picker">
        <legend className="field__label">{t('client-tools.expand.canvas')}</legend>
        {CANVAS_OPTIONS.map((o) => (
          <label key={o} className="model-picker__option">
            <input type="radio" name="expand-canvas" value={o} checked={option === o} onChange={() => onOption(o)} />
            <span>
              {isAspect(o)
                ? t(`client-tools.expand.aspect.${o}`)
                : t('client-tools.expand.factor', { n: new Intl.NumberFormat(numberLocale()).format(Number(o)) })}
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="field model-picker expand-picker" data-testid="position-picker">
        <legend className="field__label">{t('client-tools.expand.position')}</legend>
        {EXPAND_POSITIONS.map((p) => (
          <label key={p} className="model-picker__option">
            <input
              type="radio"
              name="expand-position"
              value={p}
              checked={position === p}
              onChange={() => onPosition(p)}
            />
            <span>{t(`client-tools.expand.position.${p}`)}</span>
          </label>
        ))}
      </fieldset>
    </>
  );
}
