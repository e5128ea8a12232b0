import type { Label } from '@parley/protocol';
import classes from './label-chips.module.css';

/**
 * A chat's labels as small coloured chips. Plain elements (a list row builds many at once) and
 * the name as a text node only: a label's name is never markup.
 */
export function LabelChips({
  labels,
  testId = 'label-chips',
}: {
  labels?: readonly Label[];
  testId?: string;
}) {
  if (!labels || labels.length === 0) return null;
  return (
    <div className={classes.chips} data-testid={testId}>
      {labels.map((l) => (
        <span
          key={l.label_id}
          className={classes.chip}
          style={{ background: `var(--mantine-color-${l.color}-7)` }}
          title={l.name}
          data-testid="label-chip"
          data-label-id={l.label_id}
          data-color={l.color}
        >
          {l.name}
        </span>
      ))}
    </div>
  );
}
