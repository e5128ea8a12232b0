import { describe, expect, it } from 'vitest';
import { findUnstyled } from './check-mantine-css.mjs';

const chunk = (fileName: string, code: string, imports: string[] = [], css: string[] = []) => ({
  fileName,
  code,
  imports,
  css,
  isEntry: fileName === 'start.js',
  isDynamicEntry: fileName !== 'start.js' && !fileName.startsWith('shared'),
});

describe('findUnstyled', () => {
  const css = {
    'start.css': '@layer mantine {.m_00000001 { color: red }}',
    'menu.css': '@layer mantine {.m_00000002 { color: blue }}',
  };

  it('accepts a screen whose Mantine classes are styled by its own CSS or the start CSS', () => {
    const chunks = [
      chunk('start.js', 'x("m_00000001")', [], ['start.css']),
      chunk('menu.js', 'x("m_00000002", "m_00000001")', ['shared.js'], ['menu.css']),
      chunk('shared.js', 'x("m_00000001")'),
    ];
    expect(findUnstyled(chunks, css)).toEqual([]);
  });

  it('names the screen and the classes it would render unstyled, its imports included', () => {
    const chunks = [
      chunk('start.js', 'x("m_00000001")', [], ['start.css']),
      chunk('dialog.js', 'x()', ['shared-dialog.js']),
      chunk('shared-dialog.js', 'x("m_00000002", "m_0000000f")'),
    ];
    expect(findUnstyled(chunks, css)).toEqual([
      { chunk: 'dialog.js', missing: ['m_00000002', 'm_0000000f'] },
    ]);
  });
});
