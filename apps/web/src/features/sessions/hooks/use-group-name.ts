import { useTranslation } from 'react-i18next';
import type { Group } from '@parley/protocol';

/** Built-in groups are shown by their translated names, custom ones as named. */
export function useGroupName(): (g: Pick<Group, 'group_type' | 'group_name'>) => string {
  const { t } = useTranslation('groups');
  return (g) => (g.group_type === 'custom' ? g.group_name : t(`builtIn.${g.group_type}`));
}
