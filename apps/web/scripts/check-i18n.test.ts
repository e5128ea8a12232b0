import { describe, expect, it } from 'vitest';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_MESSAGES, OTHER_MESSAGES, UI_LANGUAGES } from '@parley/protocol';
// @ts-expect-error plain ESM script without types
import { findEuropeanPortuguese, findProblems, loadLocales } from './i18n-check-core.mjs';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'locales');
const catalogue = {
  errorCodes: Object.keys(ERROR_MESSAGES),
  otherMessages: Object.keys(OTHER_MESSAGES),
};

describe('i18n completeness', () => {
  it('the shipped locales are complete in all four languages', () => {
    expect(findProblems(loadLocales(dir, UI_LANGUAGES), catalogue)).toEqual([]);
  });

  it("the admin console's locales are complete in all four languages", () => {
    expect(findProblems(loadLocales(join(dir, 'admin'), UI_LANGUAGES))).toEqual([]);
  });

  it('reports a key missing or empty in another language', () => {
    const problems = findProblems({
      en: { 'common:a': 'A', 'common:b': 'B' },
      pt: { 'common:a': 'A', 'common:b': ' ' },
      ru: { 'common:b': 'Б' },
    });
    expect(problems).toContain('pt: empty common:b');
    expect(problems).toContain('ru: missing common:a');
  });

  it('needs every plural form of each language', () => {
    const problems = findProblems({
      en: { 'chat:n_one': '1', 'chat:n_other': 'n' },
      ru: { 'chat:n_one': '1', 'chat:n_other': 'n' },
      'zh-CN': { 'chat:n_other': 'n' },
    });
    expect(problems).toEqual(['ru: missing chat:n_few', 'ru: missing chat:n_many']);
  });

  it('needs every error code and other message', () => {
    const problems = findProblems({ en: { 'common:a': 'A' } }, catalogue);
    expect(problems).toContain('en: missing errors:500005');
    expect(problems).toContain('en: missing messages:appOpenInAnotherTab');
  });

  it('pt is Brazilian throughout: no European form in the console or the admin console', () => {
    const locales = loadLocales(dir, UI_LANGUAGES);
    const admin = loadLocales(join(dir, 'admin'), UI_LANGUAGES);
    expect(findEuropeanPortuguese(locales.pt)).toEqual([]);
    expect(findEuropeanPortuguese(admin.pt)).toEqual([]);
  });

  it('refuses the European forms once found (Contactos, telefónica, Registo, a carregar…)', () => {
    const problems = findEuropeanPortuguese({
      'addressBook:title': 'Contactos',
      'admin:phones': 'Contas telefónicas',
      'admin:audit': 'Registo',
      'admin:loading': 'A carregar…',
      'ok:title': 'Contatos, contas telefônicas, registro, carregando',
    });
    expect(problems.map((p: string) => p.split(' has ')[0])).toEqual([
      'pt: addressBook:title',
      'pt: admin:phones',
      'pt: admin:audit',
      'pt: admin:loading',
    ]);
  });

  it("refuses what issue 37 found in the owner's console (à espera, 1.ª, falhadas, Posto…)", () => {
    const problems = findEuropeanPortuguese({
      'admin:waiting': 'Conversas à espera',
      'admin:waitingColumn': 'À espera · maior',
      'admin:frt': 'Mediana da 1.ª resposta',
      'admin:failed': 'Entregas falhadas',
      'admin:seat': 'Posto',
      'admin:nickname': 'Alcunha',
      'admin:required': 'Introduza a conta',
      'admin:live': 'Em direto',
      'operator:logout': 'Terminar sessão',
      'admin:none': 'Nenhum carácter enviado',
      'admin:deletion': '(eliminação)',
      'ok:all':
        'Conversas aguardando, Mediana da 1ª resposta, Com falha, Atendente, Apelido, Informe a conta, Ao vivo, Sair, caractere, exclusão, exposto, composto',
    });
    expect(problems.map((p: string) => p.split(' has ')[0])).toEqual([
      'pt: admin:waiting',
      'pt: admin:waitingColumn',
      'pt: admin:frt',
      'pt: admin:failed',
      'pt: admin:seat',
      'pt: admin:nickname',
      'pt: admin:required',
      'pt: admin:live',
      'pt: operator:logout',
      'pt: admin:none',
      'pt: admin:deletion',
    ]);
  });
});
