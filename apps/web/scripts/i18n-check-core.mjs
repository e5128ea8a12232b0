import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Flattens nested JSON into dotted keys. */
export function flatten(obj, prefix = '', out = {}) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v, key, out);
    else out[key] = v;
  }
  return out;
}

/** Reads src/locales/<lang>/<ns>.json into { lang: { 'ns:key': value } }. */
export function loadLocales(dir, languages) {
  const result = {};
  for (const lang of languages) {
    const langDir = join(dir, lang);
    result[lang] = {};
    if (!existsSync(langDir)) continue;
    for (const file of readdirSync(langDir).filter((f) => f.endsWith('.json'))) {
      const ns = file.replace(/\.json$/, '');
      const flat = flatten(JSON.parse(readFileSync(join(langDir, file), 'utf8')));
      for (const [k, v] of Object.entries(flat)) result[lang][`${ns}:${k}`] = v;
    }
  }
  return result;
}

const empty = (v) => typeof v !== 'string' || v.trim() === '';

/**
 * Problems of a set of locales: a key present in one language but missing or empty in
 * another (plural keys compared by base, each language needing its own plural forms), and
 * error codes or other messages without a translation.
 */
export function findProblems(locales, { errorCodes = [], otherMessages = [] } = {}) {
  const problems = [];
  const languages = Object.keys(locales);
  if (languages.length === 0) return ['no languages'];
  const plainKeys = new Set();
  const pluralBases = new Set();
  for (const lang of languages) {
    if (Object.keys(locales[lang]).length === 0) problems.push(`${lang}: no translations`);
    for (const key of Object.keys(locales[lang])) {
      if (PLURAL.test(key)) pluralBases.add(key.replace(PLURAL, ''));
      else plainKeys.add(key);
    }
  }
  for (const code of errorCodes) plainKeys.add(`errors:${code}`);
  for (const key of otherMessages) plainKeys.add(`messages:${key}`);
  for (const lang of languages) {
    const table = locales[lang];
    for (const key of plainKeys) {
      if (!(key in table)) problems.push(`${lang}: missing ${key}`);
      else if (empty(table[key])) problems.push(`${lang}: empty ${key}`);
    }
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const base of pluralBases) {
      for (const cat of categories) {
        const key = `${base}_${cat}`;
        if (!(key in table)) problems.push(`${lang}: missing ${key}`);
        else if (empty(table[key])) problems.push(`${lang}: empty ${key}`);
      }
    }
  }
  return problems;
}

/**
 * `pt` serves Brazil: forms of European Portuguese the Brazilian reader would notice, each with
 * the Brazilian one. Matched as whole words, case-insensitively.
 */
export const EUROPEAN_PORTUGUESE = [
  ['contacto(s)', /\bcontact(o|os|ar|ado|ada|ados|adas)\b/i, 'contato(s), contatar'],
  ['telefónico/a', /\btelefónic[oa]s?\b/i, 'telefônico/a'],
  ['registo(s)', /\bregistos?\b/i, 'registro(s)'],
  ['palavra-passe', /\bpalavras?-passe\b/i, 'senha'],
  ['consola', /\bconsolas?\b/i, 'console'],
  ['ecrã', /\becrãs?\b/i, 'tela'],
  ['utilizador', /\butilizador(a|es|as)?\b/i, 'usuário'],
  ['ficheiro', /\bficheiros?\b/i, 'arquivo'],
  ['secção', /\bsecç(ão|ões)\b/i, 'seção'],
  ['equipa', /\bequipas?\b/i, 'equipe'],
  ['telemóvel', /\btelemóve(l|is)\b/i, 'celular'],
  ['gerir', /\bgerir\b/i, 'gerenciar'],
  ['guardar/guardado', /\bguard(ar|ado|ada|ados|adas)\b/i, 'salvar, salvo'],
  ['facto', /\bfactos?\b/i, 'fato'],
  ['actual/activo', /\bact(ual|ivo|iva|ivos|ivas|ivar|ualizar)\b/i, 'atual, ativo'],
  // Issue 37: left in the owner's console. \b does not see accented letters: (^|\s) does.
  ['à espera', /(^|\s)à espera\b/iu, 'aguardando'],
  ['1.ª (ordinal with a dot)', /\d\.[ªº]/u, '1ª'],
  ['falhado/falhadas', /\bfalhad(o|a|os|as)\b/i, 'com falha'],
  ['posto (a seat)', /\bpostos?\b/i, 'atendente'],
  ['alcunha', /\balcunhas?\b/i, 'apelido'],
  ['introduza/introduzir', /\bintroduz(a|ir)\b/i, 'informe, digite'],
  ['em direto', /\bem dire(c)?to\b/i, 'ao vivo'],
  ['terminar sessão', /\bterminar sessão\b/iu, 'sair'],
  ['carácter', /(^|\s)carácter(es)?\b/iu, 'caractere'],
  ['eliminar/eliminação', /\belimina(r|ção|do|da)\b/iu, 'excluir, exclusão'],
  [
    'a + infinitive (a carregar)',
    /(^|\b(está|estão|estou) )a (carregar|enviar|traduzir|religar|consultar|iniciar|gravar|ligar)\b/iu,
    'gerund (carregando)',
  ],
];

/** The European forms found in `strings` (key → text), as problems. */
export function findEuropeanPortuguese(strings) {
  const problems = [];
  for (const [key, text] of Object.entries(strings)) {
    if (typeof text !== 'string') continue;
    for (const [name, pattern, brazilian] of EUROPEAN_PORTUGUESE) {
      if (pattern.test(text)) problems.push(`pt: ${key} has "${name}" (Brazil: ${brazilian})`);
    }
  }
  return problems;
}
