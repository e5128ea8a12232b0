import '../mantine-admin-styles';
import { Stack } from '@mantine/core';
import { EngineRoutesSection } from './engine-routes-section';
import { GlossarySection } from './glossary-section';

/** The owner's translation settings: the workspace's glossary and the engines per pair. */
export function TranslationPage() {
  return (
    <Stack gap="xl" data-testid="translation-page">
      <GlossarySection />
      <EngineRoutesSection />
    </Stack>
  );
}
