import { Text, UnstyledButton } from '@mantine/core';
import classes from './quote-block.module.css';

/** What a quote shows of the quoted message (the console's and the sandbox's quotes alike). */
export interface QuotedMessage {
  type: string;
  preview: string;
  deleted: boolean;
}

export interface QuoteLabels {
  /** Who wrote the quoted message, as the reader sees it ("You", "Customer", "Operator"). */
  author: string;
  /** The quoted message's kind ("Photo", "Voice message"), for media. */
  kind: string;
  /** Shown instead of the words of a retracted message. */
  deleted: string;
  /** The quote as a button: what a click on it does (its accessible name). */
  open?: string;
}

interface Props {
  quote: QuotedMessage;
  labels: QuoteLabels;
  /** The console's quotes are blue, the customer's sandbox green. */
  color: 'blue' | 'green';
  testId: string;
  textTestId: string;
  authorTestId?: string;
  quotedId?: number;
  /** Given: the quote is a button (jump to the quoted message); not for a retracted one. */
  onOpen?: () => void;
}

/**
 * The quoted message above a reply (and above the composer while replying): who wrote it and
 * its words, or its kind for media without words; a retracted one as "deleted message".
 */
export function QuoteBlock({
  quote,
  labels,
  color,
  testId,
  textTestId,
  authorTestId,
  quotedId,
  onOpen,
}: Props) {
  const media = quote.type !== 'text';
  const words = quote.deleted
    ? labels.deleted
    : media && quote.preview
      ? `${labels.kind} · ${quote.preview}`
      : quote.preview || (media ? labels.kind : '');
  const body = (
    <>
      <Text size="xs" fw={600} c={color} data-testid={authorTestId}>
        {labels.author}
      </Text>
      <Text
        size="xs"
        c="dimmed"
        lineClamp={2}
        fs={quote.deleted ? 'italic' : undefined}
        data-testid={textTestId}
      >
        {words}
      </Text>
    </>
  );
  const common = {
    className: classes.quote,
    'data-color': color,
    'data-testid': testId,
    'data-quoted-id': quotedId,
    'data-deleted': quote.deleted || undefined,
  };
  if (!onOpen || quote.deleted) return <div {...common}>{body}</div>;
  return (
    <UnstyledButton
      {...common}
      onClick={onOpen}
      title={labels.open}
      aria-label={labels.open ? `${labels.open}: ${labels.author}, ${words}` : undefined}
    >
      {body}
    </UnstyledButton>
  );
}
