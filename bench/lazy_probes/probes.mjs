// Broad synthetic probe of the editcore lazy merge.
// Usage: node bench/lazy_probes/probes.mjs [build/native/editcore] [--seeds 1,2,3,4,5 | --seed N] [--n 300 per language per seed] [--dump DIR] [--only NAME_SUBSTR] [-v: print snippets and decline kinds]
// Each case: an original file (built from per-language templates), an edit applied to its lines
// (expected output computed directly), and a lazy snippet derived from the expected file by hiding
// runs of unchanged lines behind marker comments. Only cases where every segment of the snippet
// has a line the original holds exactly once (or a lone edited line whose head is unique between
// its neighbours) are run: a careful reader has one placement.
// Prints totals, the WRONG cases (success with content != expected), and decline reasons.
import {spawnSync} from 'child_process';
import fs from 'fs';

const argv = process.argv.slice(2);
const bin = argv[0] || 'build/native/editcore';
const opt = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
const SEEDS = opt('--seed', null) ? [+opt('--seed', 1)] : opt('--seeds', '1,2,3,4,5').split(',').map(Number);
const PER = +opt('--n', 300);
const DUMP = opt('--dump', null);
const ONLY = opt('--only', null);
const VERBOSE = argv.includes('-v');

// ---------- rng ----------
let S = 1;
const rnd = () => { S ^= S << 13; S >>>= 0; S ^= S >>> 17; S ^= S << 5; S >>>= 0; return S / 4294967296; };
const ri = (a, b) => a + Math.floor(rnd() * (b - a + 1));
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const chance = (p) => rnd() < p;

// ---------- languages ----------
// A line: {d: depth, t: text, k: kind, u: unit index, jsx: bool}
// kinds: imp, hdr (unit opener), fclose (unit closer), open, close, stmt, blank, cmt, wrap (class opener/closer)
const WORDS = ['Save', 'Cancel', 'Delete', 'Submit', 'Load', 'Close', 'Search', 'Reset', 'Export', 'Login'];
const TRANS = {Save: 'Guardar', Cancel: 'Cancelar', Delete: 'Eliminar', Submit: 'Enviar', Load: 'Cargar', Close: 'Cerrar', Search: 'Buscar', Reset: 'Reiniciar', Export: 'Exportar', Login: 'Entrar', Title: 'Titulo', Name: 'Nombre', Email: 'Correo'};
const NAMES = ['load_user', 'save_order', 'parse_row', 'render_page', 'fetch_items', 'update_cart', 'compute_total', 'validate_form', 'send_email', 'build_index', 'merge_lists', 'format_date', 'check_access', 'apply_discount', 'export_report', 'sync_cache', 'read_config', 'write_log', 'scale_image', 'count_words'];
const camel = (s) => s.replace(/_(\w)/g, (_, c) => c.toUpperCase());
const pascal = (s) => { const c = camel(s); return c[0].toUpperCase() + c.slice(1); };

// C-like and other statement languages share a generic body builder.
const G = {
  py: {ext: 'py', ind: '    ', cm: (t) => `# ${t}`, sep: 2, nm: (s) => s,
    imports: ['import os', 'import sys', 'from typing import List'], newImport: 'import json',
    hdr: (n, p) => `def ${n}(${p.join(', ')}):`, close: null, params: ['a', 'b'], newParam: 'c=None',
    assign: (v, e) => `${v} = ${e}`, reassign: (v, e) => `${v} += ${e}`,
    ifnot: (v) => [[0, `if not ${v}:`, 'open'], [1, 'return None', 'stmt']],
    loop: [[0, 'for item in items:', 'open'], [1, 'total += item.size', 'stmt']],
    call: (f, a) => `${f}(${a})`, ret: (e) => `return ${e}`, str: (s) => `"${s}"`,
    log: (n) => `logger.info("step ${n}")`},
  js: {ext: 'js', ind: '  ', cm: (t) => `// ${t}`, sep: 1, nm: camel,
    imports: ["import fs from 'fs';", "import path from 'path';", "import { format } from './format.js';"], newImport: "import os from 'os';",
    hdr: (n, p) => `function ${n}(${p.join(', ')}) {`, close: '}', params: ['a', 'b'], newParam: 'options = {}',
    assign: (v, e) => `const ${v} = ${e};`, reassign: (v, e) => `${v} += ${e};`,
    ifnot: (v) => [[0, `if (!${v}) {`, 'open'], [1, 'return null;', 'stmt'], [0, '}', 'close']],
    loop: [[0, 'for (const item of items) {', 'open'], [1, 'total += item.size;', 'stmt'], [0, '}', 'close']],
    call: (f, a) => `${f}(${a});`, ret: (e) => `return ${e};`, str: (s) => `'${s}'`,
    log: (n) => `console.log('step ${n}');`, letTotal: true, exportList: true},
  ts: {ext: 'ts', ind: '  ', cm: (t) => `// ${t}`, sep: 1, nm: camel,
    imports: ["import { Request, Response } from 'express';", "import { db } from './db';", "import type { User } from './types';"], newImport: "import { z } from 'zod';",
    hdr: (n, p) => `export function ${n}(${p.map((x) => x + ': number').join(', ')}): number {`, close: '}', params: ['a', 'b'], newParam: 'scale = 1',
    assign: (v, e) => `const ${v}: number = ${e};`, reassign: (v, e) => `${v} += ${e};`,
    ifnot: (v) => [[0, `if (!${v}) {`, 'open'], [1, 'return 0;', 'stmt'], [0, '}', 'close']],
    loop: [[0, 'for (const item of items) {', 'open'], [1, 'total += item.size;', 'stmt'], [0, '}', 'close']],
    call: (f, a) => `${f}(${a});`, ret: (e) => `return ${e};`, str: (s) => `"${s}"`,
    log: (n) => `console.debug("step ${n}");`, letTotal: true},
  rs: {ext: 'rs', ind: '    ', cm: (t) => `// ${t}`, sep: 1, nm: (s) => s,
    imports: ['use std::collections::HashMap;', 'use std::fs;', 'use crate::model::Item;'], newImport: 'use std::io::Write;',
    hdr: (n, p) => `pub fn ${n}(${p.map((x) => x + ': i64').join(', ')}) -> i64 {`, close: '}', params: ['a', 'b'], newParam: 'c: i64',
    assign: (v, e) => `let ${v} = ${e};`, reassign: (v, e) => `${v} += ${e};`,
    ifnot: (v) => [[0, `if ${v} == 0 {`, 'open'], [1, 'return 0;', 'stmt'], [0, '}', 'close']],
    loop: [[0, 'for item in items.iter() {', 'open'], [1, 'total += item.size;', 'stmt'], [0, '}', 'close']],
    call: (f, a) => `${f}(${a});`, ret: (e) => `${e}`, str: (s) => `"${s}"`,
    log: (n) => `println!("step ${n}");`, letTotal: true},
  go: {ext: 'go', ind: '\t', cm: (t) => `// ${t}`, sep: 1, nm: camel,
    pre: ['package main', ''], imports: ['import (', '\t"fmt"', '\t"os"', '\t"strings"', ')'], newImportInner: '\t"errors"',
    hdr: (n, p) => `func ${n}(${p.map((x) => x + ' int').join(', ')}) int {`, close: '}', params: ['a', 'b'], newParam: 'c int',
    assign: (v, e) => `${v} := ${e}`, reassign: (v, e) => `${v} += ${e}`,
    ifnot: (v) => [[0, `if ${v} == 0 {`, 'open'], [1, 'return 0', 'stmt'], [0, '}', 'close']],
    loop: [[0, 'for _, item := range items {', 'open'], [1, 'total += item.Size', 'stmt'], [0, '}', 'close']],
    call: (f, a) => `${f}(${a})`, ret: (e) => `return ${e}`, str: (s) => `"${s}"`,
    log: (n) => `fmt.Println("step ${n}")`},
  java: {ext: 'java', ind: '    ', cm: (t) => `// ${t}`, sep: 1, nm: camel,
    imports: ['import java.util.List;', 'import java.util.Map;', 'import java.io.IOException;'], newImport: 'import java.util.Optional;',
    wrap: ['public class Service {', '}'],
    hdr: (n, p) => `public int ${n}(${p.map((x) => 'int ' + x).join(', ')}) {`, close: '}', params: ['a', 'b'], newParam: 'int c',
    assign: (v, e) => `int ${v} = ${e};`, reassign: (v, e) => `${v} += ${e};`,
    ifnot: (v) => [[0, `if (${v} == 0) {`, 'open'], [1, 'return 0;', 'stmt'], [0, '}', 'close']],
    loop: [[0, 'for (Item item : items) {', 'open'], [1, 'total += item.size;', 'stmt'], [0, '}', 'close']],
    call: (f, a) => `${f}(${a});`, ret: (e) => `return ${e};`, str: (s) => `"${s}"`,
    log: (n) => `log.info("step ${n}");`, strType: 'String'},
  cpp: {ext: 'cpp', ind: '    ', cm: (t) => `// ${t}`, sep: 1, nm: (s) => s,
    imports: ['#include <vector>', '#include <string>', '#include "item.h"'], newImport: '#include <map>',
    hdr: (n, p) => `int ${n}(${p.map((x) => 'int ' + x).join(', ')}) {`, close: '}', params: ['a', 'b'], newParam: 'int c',
    assign: (v, e) => `int ${v} = ${e};`, reassign: (v, e) => `${v} += ${e};`,
    ifnot: (v) => [[0, `if (${v} == 0) {`, 'open'], [1, 'return 0;', 'stmt'], [0, '}', 'close']],
    loop: [[0, 'for (const auto& item : items) {', 'open'], [1, 'total += item.size;', 'stmt'], [0, '}', 'close']],
    call: (f, a) => `${f}(${a});`, ret: (e) => `return ${e};`, str: (s) => `"${s}"`,
    log: (n) => `std::cout << "step ${n}" << std::endl;`, strType: 'std::string'},
  rb: {ext: 'rb', ind: '  ', cm: (t) => `# ${t}`, sep: 1, nm: (s) => s,
    imports: ["require 'json'", "require 'set'", "require_relative 'item'"], newImport: "require 'time'",
    wrap: ['class Service', 'end'],
    hdr: (n, p) => `def ${n}(${p.join(', ')})`, close: 'end', params: ['a', 'b'], newParam: 'c = nil',
    assign: (v, e) => `${v} = ${e}`, reassign: (v, e) => `${v} += ${e}`,
    ifnot: (v) => [[0, `if ${v}.nil?`, 'open'], [1, 'return nil', 'stmt'], [0, 'end', 'close']],
    loop: [[0, 'items.each do |item|', 'open'], [1, 'total += item.size', 'stmt'], [0, 'end', 'close']],
    call: (f, a) => `${f}(${a})`, ret: (e) => `${e}`, str: (s) => `"${s}"`,
    log: (n) => `puts "step ${n}"`},
  lua: {ext: 'lua', ind: '  ', cm: (t) => `-- ${t}`, sep: 1, nm: (s) => s,
    imports: ['local json = require("json")', 'local util = require("util")'], newImport: 'local log = require("log")',
    hdr: (n, p) => `local function ${n}(${p.join(', ')})`, close: 'end', params: ['a', 'b'], newParam: 'c',
    assign: (v, e) => `local ${v} = ${e}`, reassign: (v, e) => `${v} = ${v} + ${e}`,
    ifnot: (v) => [[0, `if not ${v} then`, 'open'], [1, 'return nil', 'stmt'], [0, 'end', 'close']],
    loop: [[0, 'for _, item in ipairs(items) do', 'open'], [1, 'total = total + item.size', 'stmt'], [0, 'end', 'close']],
    call: (f, a) => `${f}(${a})`, ret: (e) => `return ${e}`, str: (s) => `"${s}"`,
    log: (n) => `print("step ${n}")`, footer: ['', 'return {'], footerFn: true},
};

let NEWC = 0; // counter for new unique lines

function genericUnit(L, name, u) {
  const out = [];
  const push = (d, t, k) => out.push({d, t, k, u});
  push(0, L.hdr(name, L.params), 'hdr');
  const groups = [];
  const n1 = ri(2, 97);
  groups.push([[0, L.assign('total', `a + ${n1}`), 'stmt']]);
  const pool = [
    () => L.ifnot('b'),
    () => [[0, L.assign('items', L.call(pick(['load_items', 'get_items', 'fetch_rows']), `b, ${ri(5, 60)}`).replace(/;$/, '')), 'stmt']],
    () => L.loop,
    () => [[0, L.assign('label', L.str(pick(WORDS))), 'stmt']],
    () => [[0, L.assign('limit', '10'), 'stmt']],
    () => [[0, L.call('notify', `${L.str(pick(WORDS))}, total`), 'stmt']],
    () => [[0, L.reassign('total', `${ri(1, 9)} * b`), 'stmt']],
    () => [[0, L.call('check', 'total'), 'stmt']],
  ];
  const ng = ri(2, 6);
  const used = new Set();
  for (let i = 0; i < ng; i++) { let j = ri(0, pool.length - 1); let tries = 0; while (used.has(j) && j !== 2 && tries++ < 20) j = ri(0, pool.length - 1); if (used.has(j) && j !== 2) continue; used.add(j); groups.push(pool[j]()); }
  if (chance(0.3)) groups.splice(ri(1, groups.length), 0, []); // blank line inside the body
  for (const g of groups) { if (!g.length) push(1, '', 'blank'); for (const [d, t, k] of g) push(1 + d, t, k); }
  push(1, L.ret(pick(['total', 'total + b', 'total * 2'])), 'stmt');
  if (L.close) push(0, L.close, 'fclose');
  return out;
}

function genericFile(L, nUnits) {
  const lines = [];
  const names = NAMES.slice().sort(() => rnd() - 0.5).slice(0, nUnits).map(L.nm);
  const wrapDepth = L.wrap ? 1 : 0;
  for (const t of L.pre || []) lines.push({d: 0, t, k: t ? 'cmt' : 'blank', u: -1});
  for (const t of L.imports) lines.push({d: 0, t, k: 'imp', u: -1});
  lines.push({d: 0, t: '', k: 'blank', u: -1});
  if (L.wrap) lines.push({d: 0, t: L.wrap[0], k: 'wrap', u: -1});
  names.forEach((n, u) => {
    if (u > 0 || L.wrap) { if (u > 0) for (let i = 0; i < (L.wrap ? 1 : L.sep); i++) lines.push({d: 0, t: '', k: 'blank', u: -1}); }
    for (const l of genericUnit(L, n, u)) { l.d += wrapDepth; lines.push(l); }
  });
  if (L.wrap) lines.push({d: 0, t: L.wrap[1], k: 'wrap', u: -1});
  if (L.footerFn) { lines.push({d: 0, t: '', k: 'blank', u: -1}); lines.push({d: 0, t: 'return {', k: 'open', u: -2}); for (const n of names) lines.push({d: 1, t: `${n} = ${n},`, k: 'stmt', u: -2}); lines.push({d: 0, t: '}', k: 'close', u: -2}); }
  if (L.exportList && chance(0.5)) { lines.push({d: 0, t: '', k: 'blank', u: -1}); lines.push({d: 0, t: `export { ${names.join(', ')} };`, k: 'stmt', u: -2}); }
  return {lines, names, wrapDepth};
}
function genericNewUnit(L, name, wrapDepth) {
  const body = [
    {d: 0, t: L.hdr(name, L.params), k: 'hdr'},
    {d: 1, t: L.assign('result', `a * ${ri(11, 99)}`), k: 'stmt'},
    {d: 1, t: L.ret('result'), k: 'stmt'},
  ];
  if (L.close) body.push({d: 0, t: L.close, k: 'fclose'});
  return body.map((l) => ({...l, d: l.d + wrapDepth, u: -3}));
}

// JSX / TSX components
const JSX = {ext: 'jsx', ind: '  ', cm: (t) => `// ${t}`, cmj: (t) => `{/* ${t} */}`, sep: 1};
function jsxFile(ext, nUnits) {
  const lines = [];
  const P = (d, t, k, u, jsx) => lines.push({d, t, k, u, jsx: !!jsx});
  P(0, "import React, { useState } from 'react';", 'imp', -1); P(0, "import { Button } from './ui';", 'imp', -1); P(0, '', 'blank', -1);
  const names = NAMES.slice().sort(() => rnd() - 0.5).slice(0, nUnits).map(pascal);
  names.forEach((n, u) => {
    if (u > 0) P(0, '', 'blank', -1);
    P(0, ext === 'tsx' ? `export function ${n}({ user }: { user: User }) {` : `export function ${n}({ user }) {`, 'hdr', u);
    P(1, `const [open, setOpen] = useState(${pick(['false', 'true'])});`, 'stmt', u);
    if (chance(0.5)) P(1, `const count = ${ri(2, 90)};`, 'stmt', u);
    P(1, 'return (', 'open', u);
    P(2, `<div className="${pick(['card', 'panel', 'box'])}">`, 'open', u, 1);
    P(3, `<h2>${pick(['Title', 'Name', 'Email'])} ${u + 1}</h2>`, 'stmt', u, 1);
    const ng = ri(2, 4);
    for (let i = 0; i < ng; i++) {
      const g = ri(0, 4);
      if (g === 0) { P(3, '<div className="row">', 'open', u, 1); P(4, `<label>${pick(['Name', 'Email', 'Title'])}</label>`, 'stmt', u, 1); P(4, `<input name="f${u}${i}" />`, 'stmt', u, 1); P(3, '</div>', 'close', u, 1); }
      else if (g === 1) P(3, `<Button onClick={() => setOpen(${pick(['true', '!open'])})}>${pick(WORDS)}</Button>`, 'stmt', u, 1);
      else if (g === 2) { P(3, '{open && (', 'open', u, 1); P(4, `<p>${pick(WORDS)} details</p>`, 'stmt', u, 1); P(3, ')}', 'close', u, 1); }
      else if (g === 3) P(3, `<span>{user.${pick(['name', 'email', 'id'])}}</span>`, 'stmt', u, 1);
      else P(3, '<hr />', 'stmt', u, 1);
    }
    P(2, '</div>', 'close', u, 1);
    P(1, ');', 'close', u);
    P(0, '}', 'fclose', u);
  });
  return {lines, names, wrapDepth: 0};
}
function jsxNewUnit(name) {
  return [
    {d: 0, t: `export function ${name}() {`, k: 'hdr'}, {d: 1, t: 'return (', k: 'open'},
    {d: 2, t: `<section className="${name.toLowerCase()}">`, k: 'open', jsx: true}, {d: 3, t: `<p>New ${name}</p>`, k: 'stmt', jsx: true},
    {d: 2, t: '</section>', k: 'close', jsx: true}, {d: 1, t: ');', k: 'close'}, {d: 0, t: '}', k: 'fclose'},
  ].map((l) => ({...l, u: -3}));
}

// CSS
const CSS = {ext: 'css', ind: '  ', cm: (t) => `/* ${t} */`, sep: 1};
function cssFile(nUnits) {
  const lines = [];
  const names = NAMES.slice().sort(() => rnd() - 0.5).slice(0, nUnits).map((s) => '.' + s.replace(/_/g, '-'));
  names.forEach((n, u) => {
    if (u > 0) lines.push({d: 0, t: '', k: 'blank', u: -1});
    lines.push({d: 0, t: `${n} {`, k: 'hdr', u});
    const props = ['display: flex;', `color: #${ri(100, 999)};`, `padding: ${ri(1, 24)}px;`, 'margin: 0;', `font-size: ${ri(10, 30)}px;`, 'border-radius: 4px;', `width: ${ri(10, 100)}%;`];
    const np = ri(2, 5);
    const ps = props.sort(() => rnd() - 0.5).slice(0, np);
    for (const p of ps) lines.push({d: 1, t: p, k: 'stmt', u});
    lines.push({d: 0, t: '}', k: 'fclose', u});
  });
  return {lines, names, wrapDepth: 0};
}
// HTML
const HTML = {ext: 'html', ind: '  ', cm: (t) => `<!-- ${t} -->`, sep: 0};
function htmlFile(nUnits) {
  const lines = [];
  const P = (d, t, k, u) => lines.push({d, t, k, u});
  P(0, '<!DOCTYPE html>', 'cmt', -1); P(0, '<html>', 'wrap', -1); P(1, '<body>', 'wrap', -1);
  const names = NAMES.slice().sort(() => rnd() - 0.5).slice(0, nUnits).map((s) => s.replace(/_/g, '-'));
  names.forEach((n, u) => {
    P(2, `<section id="${n}">`, 'hdr', u);
    P(3, `<h2>${pick(['Title', 'Name', 'Email'])} ${u + 1}</h2>`, 'stmt', u);
    const ng = ri(1, 3);
    for (let i = 0; i < ng; i++) {
      const g = ri(0, 2);
      if (g === 0) { P(3, '<div class="row">', 'open', u); P(4, `<p>${pick(WORDS)} text ${ri(1, 99)}</p>`, 'stmt', u); P(3, '</div>', 'close', u); }
      else if (g === 1) P(3, `<button type="button">${pick(WORDS)}</button>`, 'stmt', u);
      else P(3, '<hr>', 'stmt', u);
    }
    P(2, '</section>', 'fclose', u);
  });
  P(1, '</body>', 'wrap', -1); P(0, '</html>', 'wrap', -1);
  return {lines, names, wrapDepth: 2};
}

// ---------- edits ----------
const isStrong = (t) => { const s = t.trim(); return s.length >= 4 && !/^<(hr|br)\s*\/?>$/.test(s) && /[A-Za-z0-9]/.test(s) && !/^(end|else|\}\)?;?|\)\}?;?|<\/\w+>|return|break|continue)$/.test(s); };
function editText(t, how) {
  // returns changed text or null
  if (how === 'num') { if (/step \d/.test(t)) return null; const ms = [...t.matchAll(/\d+/g)].filter((m) => !/[hH]$/.test(t.slice(0, m.index)) && !/^\w/.test(t.slice(m.index + m[0].length))); const m = ms[ms.length - 1]; if (!m) return null; const n = +m[0]; return t.slice(0, m.index) + (n * 10 + 7) + t.slice(m.index + m[0].length); }
  if (how === 'label') { const m = t.match(/\b(Save|Cancel|Delete|Submit|Load|Close|Search|Reset|Export|Login|Title|Name|Email)\b/); if (!m) return null; return t.replace(m[1], TRANS[m[1]]); }
  if (how === 'ident') { const m = t.match(/\b([a-z_][A-Za-z_]{3,})\(/); if (!m || /^(function|if|for)$/.test(m[1])) return null; return t.replace(m[1] + '(', m[1] + (m[1].includes('_') ? '_v2(' : 'V2(')); }
  if (how === 'append') {
    if (/[{(:]$|\bthen$|\bdo$|\bdo \|/.test(t) || !/=/.test(t) || /=>|<\w/.test(t)) return null;
    const m = t.match(/^(.*?)(;|,)?$/); return m[1] + ' + 1' + (m[2] || '');
  }
  return null;
}

function newStmt(lang, L) {
  NEWC++;
  if (lang === 'css') return `${pick(['gap', 'opacity', 'z-index', 'line-height'])}: ${NEWC};`;
  if (lang === 'html') return `<p class="note">Note ${NEWC}</p>`;
  if (lang === 'jsx' || lang === 'tsx') return `<small>Hint ${NEWC}</small>`;
  return L.log(NEWC);
}
function newStmtCode(lang, L) { // code-context new statement for JSX files
  NEWC++;
  if (lang === 'jsx' || lang === 'tsx') return `const extra${NEWC} = ${NEWC};`;
  return newStmt(lang, L);
}

// ops: Map origIndex -> {repl: lines|null, del: bool, before: [], after: []}
function applyOps(lines, ops) {
  const out = [];
  lines.forEach((l, i) => {
    const o = ops.get(i) || {};
    for (const n of o.before || []) out.push({...n, new: true});
    if (o.del) { /* nothing */ } else if (o.repl) for (const n of o.repl) out.push({...n, new: true, replOf: i});
    else out.push({...l, orig: i});
    for (const n of o.after || []) out.push({...n, new: true});
  });
  return out;
}
const getOp = (ops, i) => { if (!ops.has(i)) ops.set(i, {}); return ops.get(i); };

// ---------- snippet building ----------
const MARKS = {
  plain: ['... existing code ...', '... rest of the code ...', '... keep existing code', '...', '... existing code', 'existing code ...'],
  last: ['Rest of the file remains the same', '... rest of the file ...', '... rest of the code ...'],
  jsxKeep: ['... keep existing code (form fields)', '... existing JSX ...', '... rest of the component ...'],
  jsxLast: ['Rest of the component remains the same'],
};

function render(l, ind) { return l.t === '' ? '' : ind.repeat(l.d) + l.t; }

function buildCase(lang, L, file, edit, ctx) {
  const {lines} = file;
  const N = applyOps(lines, edit.ops);
  // sites: indices in N of new lines; deletion sites: neighbours in N
  const show = new Array(N.length).fill(false);
  const sites = [];
  N.forEach((l, j) => { if (l.new) sites.push(j); });
  // deletion: orig indices deleted -> neighbours in N
  const origPos = new Map(); N.forEach((l, j) => { if (l.orig !== undefined) origPos.set(l.orig, j); });
  for (const [i, o] of edit.ops) if (o.del) {
    let a = i - 1; while (a >= 0 && !origPos.has(a)) a--; let b = i + 1; while (b < lines.length && !origPos.has(b)) b++;
    if (a >= 0) sites.push(origPos.get(a)); if (b < lines.length) sites.push(origPos.get(b));
  }
  for (const s of sites) {
    show[s] = true;
    for (let k = 1; k <= ctx.before; k++) if (s - k >= 0) show[s - k] = true;
    for (let k = 1; k <= ctx.after; k++) if (s + k < N.length) show[s + k] = true;
    const u = N[s].u;
    if (ctx.header && u >= 0) N.forEach((l, j) => { if (l.u === u && l.k === 'hdr') show[j] = true; });
    if (ctx.close && u >= 0) N.forEach((l, j) => { if (l.u === u && l.k === 'fclose') show[j] = true; });
    if (ctx.whole && u >= 0) N.forEach((l, j) => { if (l.u === u) show[j] = true; });
  }
  if (ctx.wrap) N.forEach((l, j) => { if (l.k === 'wrap') show[j] = true; });
  // new unit lines: whole unit shown (they're new anyway)
  // hidden runs of blank lines only -> shown
  let j = 0;
  while (j < N.length) {
    if (show[j]) { j++; continue; }
    let e = j; while (e < N.length && !show[e]) e++;
    if (N.slice(j, e).every((l) => l.t === '')) for (let k = j; k < e; k++) show[k] = true;
    else if (ctx.blankEdges) { // show blank lines at the run's ends (models keep the spacing)
      let a = j; while (a < e && N[a].t === '') { show[a] = true; a++; }
      let b = e - 1; while (b > a && N[b].t === '') { show[b] = true; b--; }
    }
    j = e;
  }
  // segments + markers
  const snip = []; const segs = []; let cur = null; let nMarkers = 0;
  j = 0;
  const markerFor = (a, e, isFirst, isLast) => {
    const firstNB = N.slice(a, e).find((l) => l.t !== '');
    const prev = a > 0 ? N[a - 1] : null, next = e < N.length ? N[e] : null;
    let d = ctx.mIndent === 'run' ? firstNB.d : ctx.mIndent === 'prev' && prev ? prev.d + (/[{(:]$|\bdo$|\bthen$|>$/.test(prev.t) && !/^<\//.test(prev.t) ? 1 : 0) : ctx.mIndent === 'zero' ? 0 : firstNB.d;
    const jsxCtx = (lang === 'jsx' || lang === 'tsx') && firstNB.jsx && (!prev || prev.jsx || /\($/.test(prev.t));
    let text;
    if (jsxCtx) text = isLast && ctx.lastStyle ? pick(MARKS.jsxLast) : ctx.jsxWords ? pick(MARKS.jsxKeep) : ctx.mark;
    else text = isLast && ctx.lastStyle ? pick(MARKS.last) : ctx.mark;
    if (lang === 'rb' && text === '...') text = '... existing code ...';
    const line = jsxCtx ? JSX.cmj(text) : L.cm(text);
    return (ctx.snipInd || L.ind).repeat(d) + line;
  };
  while (j < N.length) {
    if (show[j]) { if (!cur) { cur = []; cur.start = j; segs.push(cur); } cur.push(N[j]); cur.end = j; snip.push(render(N[j], ctx.snipInd || L.ind)); j++; continue; }
    let e = j; while (e < N.length && !show[e]) e++;
    snip.push(markerFor(j, e, j === 0, e === N.length)); nMarkers++; cur = null; j = e;
  }
  // unambiguity: every segment needs an orig line unique in the file (or is the first/last segment touching file start/end), or counterpart
  const cnt = new Map(); for (const l of lines) { const k = l.t.trim(); cnt.set(k, (cnt.get(k) || 0) + 1); }
  const uniq = (l) => l.orig !== undefined && isStrong(l.t) && cnt.get(l.t.trim()) === 1;
  let ok = true; let tags = [];
  segs.forEach((sg, si) => {
    if (sg.some(uniq)) return;
    if (sg.start === 0 || sg.end === N.length - 1) { tags.push('edge-seg'); return; }
    // counterpart: a lone edited line whose head is unique in the unit
    if (sg.length === 1 && sg[0].replOf !== undefined) {
      const o = lines[sg[0].replOf]; const head = o.t.split(/[=(]/)[0];
      if (head.length >= 3 && lines.filter((l) => l.u === o.u && l.t.startsWith(head)).length === 1 && segs[si - 1] && segs[si + 1]) { tags.push('counterpart'); return; }
    }
    ok = false;
  });
  if (!segs.length) ok = false;
  // a deletion whose kept neighbour on one side is a single line (or only weak lines) before a marker
  // could be read as that line inserted anew (a duplicate) with the deleted line kept: skip those
  for (const [i, o] of edit.ops) if (o.del) {
    let a = i - 1; while (a >= 0 && !origPos.has(a)) a--; let b = i + 1; while (b < lines.length && !origPos.has(b)) b++;
    for (const [start, dir] of [[origPos.get(a), -1], [origPos.get(b), 1]]) {
      if (start === undefined) continue;
      const side = []; let k = start; while (k >= 0 && k < N.length && show[k]) { side.push(N[k]); k += dir; }
      const hitsMarker = k >= 0 && k < N.length; // stopped at a hidden run, not the file's edge
      if (hitsMarker && (side.length < 2 && !side.some(uniq) || side.every((l) => !isStrong(l.t)))) ok = false;
      if (hitsMarker && !side.some(uniq)) tags.push('del-weak-side');
      if (hitsMarker && !side.some(uniq) && new Set(side.map((l) => l.t)).size === 1) ok = false; // a run of identical lines
    }
  }
  // a definition renamed and shown whole next to a marker also reads as a renamed copy inserted: skip
  if (/^rename-def/.test(edit.name) && ctx.whole) ok = false;
  // a new blank line written right before or after a marker reads as spacing (documented convention): skip
  N.forEach((l, j) => { if (l.new && l.t === '' && ((j > 0 && !show[j - 1]) || (j < N.length - 1 && !show[j + 1]))) ok = false; });
  // a marker whose run crosses units, followed by a weak line (a closer): which block does it close? skip
  {
    let k = 0;
    while (k < N.length) {
      if (show[k]) { k++; continue; }
      let e = k; while (e < N.length && !show[e]) e++;
      const run = N.slice(k, e); const us = new Set(run.filter((l) => l.t !== '').map((l) => l.u));
      const crosses = us.size > 1 || run.some((l) => l.k === 'hdr' || l.k === 'fclose' || l.k === 'wrap');
      let f = e; while (f < N.length && show[f] && N[f].t === '') f++;
      if (f < N.length && show[f] && !isStrong(N[f].t)) {
        const deeper = run.filter((l) => l.t !== '').every((l) => l.d > N[f].d);
        if (crosses || !deeper) ok = false;
      }
      k = e;
    }
  }
  // a replaced line must be rewritten by an obvious edit when its new lines touch a marker
  for (const [i, o] of edit.ops) if (o.repl) {
    const js = []; N.forEach((l, j) => { if (l.replOf === i) js.push(j); });
    const touches = (js[0] > 0 && !show[js[0] - 1]) || (js[js.length - 1] < N.length - 1 && !show[js[js.length - 1] + 1]);
    if (touches && !o.repl.some((n) => obvious(lines[i].t, n.t) || n.t === lines[i].t)) ok = false;
  }
  if (nMarkers === 0) tags.push('nomarker');
  const eol = ctx.crlf ? '\r\n' : '\n';
  const ind = L.ind;
  const fileText = lines.map((l) => render(l, ind)).join(eol) + (ctx.noFinalNL ? '' : eol);
  const expText = N.map((l) => render(l, ind)).join(eol) + (ctx.noFinalNL ? '' : eol);
  let snippet = snip.join('\n') + '\n';
  if (ctx.fence) snippet = '```' + L.ext + '\n' + snippet + '```\n';
  return {ok, tags, fileText, expText, snippet};
}
function obvious(a, b) {
  if (a === b) return false;
  let p = 0; while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let q = 0; while (q < a.length - p && q < b.length - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
  return (p + q) / Math.max(a.length, b.length) >= 0.6 && p >= 3;
}

// ---------- edit generators ----------
function editsFor(lang, L, file) {
  const {lines} = file;
  const E = [];
  const idx = (pred) => lines.map((l, i) => [l, i]).filter(([l, i]) => pred(l, i)).map(([, i]) => i);
  const stmts = idx((l) => l.k === 'stmt' && l.u >= 0);
  const mk = (name, ops, extra = {}) => E.push({name, ops, ...extra});
  const nl = (i, t, dd = 0) => ({d: lines[i].d + dd, t, k: 'stmt', u: lines[i].u, jsx: lines[i].jsx});
  for (const how of ['num', 'label', 'ident', 'append']) {
    const c = stmts.filter((i) => editText(lines[i].t, how)); if (!c.length) continue;
    const i = pick(c); const ops = new Map(); getOp(ops, i).repl = [nl(i, editText(lines[i].t, how))];
    mk(`change-${how}`, ops);
  }
  // insert after a statement / after header / before close / before a statement
  const newLineAt = (i, dd) => { const l = lines[i]; return {d: l.d + dd, t: (l.jsx || (lang === 'css' || lang === 'html')) ? newStmt(lang, L) : newStmtCode(lang, L), k: 'stmt', u: l.u, jsx: l.jsx}; };
  if (stmts.length) {
    let i = pick(stmts); let ops = new Map(); getOp(ops, i).after = [newLineAt(i, 0)]; mk('insert-after-stmt', ops);
    i = pick(stmts); ops = new Map(); getOp(ops, i).before = [newLineAt(i, 0)]; mk('insert-before-stmt', ops);
    i = pick(stmts); ops = new Map(); getOp(ops, i).after = [newLineAt(i, 0), newLineAt(i, 0)]; mk('insert-two-after-stmt', ops);
  }
  const hdrs = idx((l) => l.k === 'hdr');
  const fcl = idx((l) => l.k === 'fclose');
  if (hdrs.length && lang !== 'jsx' && lang !== 'tsx') { const i = pick(hdrs); const ops = new Map(); getOp(ops, i).after = [newLineAt(i, 1)]; mk('insert-after-header', ops); }
  if (fcl.length) { // before the unit's closer: at the body depth of the last line
    const i = pick(fcl); const prev = lines[i - 1]; const ops = new Map();
    getOp(ops, i).before = [{d: prev.d, t: prev.jsx ? newStmt(lang, L) : newStmtCode(lang, L), k: 'stmt', u: lines[i].u, jsx: prev.jsx}]; mk('insert-before-close', ops);
  }
  // a new block (opener, body, closer) after a statement; a new line followed by a blank line; two lines deleted
  if (stmts.length && lang !== 'css') {
    const i = pick(stmts); const l = lines[i]; NEWC++;
    let blk;
    if (l.jsx || lang === 'html') { const tag = lang === 'html' ? 'class' : 'className'; blk = [[0, `<div ${tag}="extra${NEWC}">`, 'open'], [1, `<p>Extra ${NEWC}</p>`, 'stmt'], [0, '</div>', 'close']]; }
    else if (lang === 'jsx' || lang === 'tsx') blk = [[0, `if (count > ${NEWC}) {`, 'open'], [1, `setOpen(false);`, 'stmt'], [0, '}', 'close']];
    else { blk = L.ifnot(`flag${NEWC}`).map((x) => [...x]); blk[1][1] = L.log(NEWC); }
    const ops = new Map(); getOp(ops, i).after = blk.map(([dd, t, k]) => ({d: l.d + dd, t, k, u: l.u, jsx: l.jsx})); mk('insert-block', ops);
  }
  if (stmts.length) { const i = pick(stmts); const ops = new Map(); getOp(ops, i).after = [newLineAt(i, 0), {d: 0, t: '', k: 'blank', u: lines[i].u}]; if (lines[i + 1] && lines[i + 1].t !== '') mk('insert-line-and-blank', ops); }
  { const c = stmts.filter((i) => lines[i + 1] && lines[i + 1].k === 'stmt' && lines[i - 1] && lines[i + 2] && lines[i - 1].t !== '' && lines[i + 2].t !== '' && lines[i].t !== lines[i + 1].t && lines[i - 1].t !== lines[i].t && lines[i + 2].t !== lines[i + 1].t);
    if (c.length) { const i = pick(c); const ops = new Map(); getOp(ops, i).del = true; getOp(ops, i + 1).del = true; mk('delete-two-lines', ops); } }
  // wrap one statement in a new block (if / try / JSX conditional / div)
  if (stmts.length && lang !== 'css') {
    const c = stmts.filter((i) => !/^(return|end$|\}|total \+= item|total = total \+ item)/.test(lines[i].t) && !(lang === 'rs' && lines[i + 1] && lines[i + 1].k === 'fclose'));
    if (c.length) {
      const i = pick(c); const l = lines[i]; NEWC++;
      let op, cl;
      if (l.jsx) { op = '{open && ('; cl = ')}'; }
      else if (lang === 'html') { op = '<div class="wrap">'; cl = '</div>'; }
      else if (lang === 'py') { op = pick([`if flag${NEWC}:`, 'try:']); cl = op === 'try:' ? 'except ValueError:' : null; }
      else if (lang === 'rb') { op = `if flag${NEWC}`; cl = 'end'; }
      else if (lang === 'lua') { op = `if flag${NEWC} then`; cl = 'end'; }
      else if (lang === 'go' || lang === 'rs') { op = `if flag${NEWC} {`; cl = '}'; }
      else if (lang === 'jsx' || lang === 'tsx') { op = `if (count > ${NEWC}) {`; cl = '}'; }
      else { op = `if (flag${NEWC}) {`; cl = '}'; }
      const repl = [{d: l.d, t: op, k: 'open', u: l.u, jsx: l.jsx}, {...l, d: l.d + 1}];
      if (cl) repl.push({d: l.d, t: cl, k: 'close', u: l.u, jsx: l.jsx});
      if (cl === 'except ValueError:') repl.push({d: l.d + 1, t: 'pass', k: 'stmt', u: l.u});
      const ops = new Map(); getOp(ops, i).repl = repl; mk('wrap-line-in-block', ops);
    }
  }
  // change + insert right after the edited line
  { const c = stmts.filter((i) => editText(lines[i].t, 'num')); if (c.length) { const i = pick(c); const ops = new Map(); const o = getOp(ops, i); o.repl = [nl(i, editText(lines[i].t, 'num'))]; o.after = [newLineAt(i, 0)]; mk('change-then-insert', ops); } }
  // delete a statement line (not an opener)
  const deletable = (i) => lines[i - 1] && lines[i + 1] && lines[i - 1].t !== lines[i].t && lines[i + 1].t !== lines[i].t && lines[i - 1].t !== '' && lines[i + 1].t !== '' && !(lines[i - 1].k === 'open' && lines[i + 1].k === 'close') && !(lines[i - 1].k === 'hdr' && lines[i + 1].k === 'fclose');
  { const c = stmts.filter(deletable); if (c.length) { const i = pick(c); const ops = new Map(); getOp(ops, i).del = true; mk('delete-line', ops); } }
  // replace one line with several
  { const c = stmts.filter((i) => !/return|^\}|^end$/.test(lines[i].t)); if (c.length) { const i = pick(c); const ops = new Map(); getOp(ops, i).repl = [newLineAt(i, 0), {...newLineAt(i, 0)}, ]; ops.get(i).repl[1].t = editText(lines[i].t, 'num') || editText(lines[i].t, 'append') || lines[i].t; if (ops.get(i).repl[1].t !== lines[i].t) mk('replace-with-two', ops); } }
  // last line before the close (edit)
  if (fcl.length) { const i = pick(fcl) - 1; const t = editText(lines[i].t, 'num') || editText(lines[i].t, 'label') || editText(lines[i].t, 'append') || (lines[i].k === 'stmt' && /^return /.test(lines[i].t) ? lines[i].t.replace(/return (.*?)(;?)$/, 'return Math.max($1, 0)$2') : null);
    if (t && lines[i].k === 'stmt') { const ops = new Map(); getOp(ops, i).repl = [nl(i, t)]; mk('edit-last-before-close', ops); } }
  // signature change
  if (hdrs.length && L.hdr) { const i = pick(hdrs); const ops = new Map(); const l = lines[i]; const t = l.t.replace(/\)(?=[^)]*$)/, ', ' + (L.newParam || 'c') + ')'); if (t !== l.t) { getOp(ops, i).repl = [{...l, t}]; mk('signature', ops); } }
  if ((lang === 'jsx' || lang === 'tsx') && hdrs.length) { const i = pick(hdrs); const ops = new Map(); const l = lines[i]; getOp(ops, i).repl = [{...l, t: l.t.replace('{ user }', '{ user, onClose }')}]; mk('signature', ops); }
  // rename definition
  if (hdrs.length && lang !== 'css' && lang !== 'html') { const i = pick(hdrs); const nm = file.names[lines[i].u]; const nn = nm + (nm.includes('_') ? '_v2' : 'V2');
    const refs = lines.filter((l, j) => j !== i && new RegExp('\\b' + nm + '\\b').test(l.t));
    if (!refs.length) { const ops = new Map(); getOp(ops, i).repl = [{...lines[i], t: lines[i].t.replace(nm, nn)}]; mk('rename-def', ops); }
    else { const ops = new Map(); getOp(ops, i).repl = [{...lines[i], t: lines[i].t.replace(nm, nn)}]; lines.forEach((l, j) => { if (j !== i && new RegExp('\\b' + nm + '\\b').test(l.t)) getOp(ops, j).repl = [{...l, t: l.t.replace(new RegExp('\\b' + nm + '\\b', 'g'), nn)}]; }); mk('rename-def-and-refs', ops); } }
  // add a new unit between u and u+1 (after closer of u)
  if (file.names.length >= 2) {
    const u = ri(0, file.names.length - 2);
    const last = lines.reduce((a, l, i) => (l.u === u ? i : a), -1);
    const nname = lang === 'css' ? '.new-rule' : lang === 'html' ? 'new-block' : (lang === 'jsx' || lang === 'tsx') ? 'NewPanel' : L.nm('new_helper');
    let unit;
    if (lang === 'css') unit = [{d: 0, t: `${nname} {`, k: 'hdr'}, {d: 1, t: 'display: grid;', k: 'stmt'}, {d: 1, t: `gap: ${ri(2, 30)}px;`, k: 'stmt'}, {d: 0, t: '}', k: 'fclose'}].map((l) => ({...l, u: -3}));
    else if (lang === 'html') unit = [{d: 2, t: `<section id="${nname}">`, k: 'hdr'}, {d: 3, t: '<p>New block</p>', k: 'stmt'}, {d: 2, t: '</section>', k: 'fclose'}].map((l) => ({...l, u: -3}));
    else if (lang === 'jsx' || lang === 'tsx') unit = jsxNewUnit(nname);
    else unit = genericNewUnit(L, nname, file.wrapDepth);
    const sep = lang === 'html' ? 0 : (L.wrap ? 1 : (L.sep || 1));
    const blanks = Array.from({length: sep}, () => ({d: 0, t: '', k: 'blank', u: -3}));
    const ops = new Map(); getOp(ops, last).after = [...blanks, ...unit];
    mk('add-unit-between', ops, {newUnit: true});
    // at end of units (after last unit)
    const lastU = file.names.length - 1; const lastI = lines.reduce((a, l, i) => (l.u === lastU ? i : a), -1);
    const ops2 = new Map(); getOp(ops2, lastI).after = [...blanks.map((b) => ({...b})), ...unit.map((l) => ({...l}))];
    mk('add-unit-after-last', ops2, {newUnit: true});
  }
  // imports
  const imps = idx((l) => l.k === 'imp');
  if (imps.length && L.newImport) { const ops = new Map(); getOp(ops, imps[imps.length - 1]).after = [{d: 0, t: L.newImport, k: 'imp', u: -1}]; mk('add-import-last', ops);
    const ops2 = new Map(); getOp(ops2, imps[0]).before = [{d: 0, t: L.newImport, k: 'imp', u: -1}]; mk('add-import-first', ops2); }
  if (lang === 'go') { const i = lines.findIndex((l) => l.t === '"os"'); if (i >= 0) { const ops = new Map(); getOp(ops, i).after = [{d: 1, t: '"errors"', k: 'imp', u: -1}]; mk('add-import-go', ops); } }
  if (lang === 'jsx' || lang === 'tsx') { const ops = new Map(); getOp(ops, 1).after = [{d: 0, t: "import { Card } from './card';", k: 'imp', u: -1}]; mk('add-import-last', ops); }
  // multi-site: two or three single-line edits in different units
  for (const nsites of [2, 3]) {
    const byU = new Map(); for (const i of stmts) { const t = editText(lines[i].t, 'num') || editText(lines[i].t, 'label'); if (t) { if (!byU.has(lines[i].u)) byU.set(lines[i].u, []); byU.get(lines[i].u).push(i); } }
    const us = [...byU.keys()].sort(() => rnd() - 0.5).slice(0, nsites);
    if (us.length === nsites) { const ops = new Map(); for (const u of us) { const i = pick(byU.get(u)); getOp(ops, i).repl = [nl(i, editText(lines[i].t, 'num') || editText(lines[i].t, 'label'))]; } mk(`multi-${nsites}-units`, ops); }
  }
  // two edits in the same unit (change one line, insert elsewhere)
  { const byU = new Map(); for (const i of stmts) { if (!byU.has(lines[i].u)) byU.set(lines[i].u, []); byU.get(lines[i].u).push(i); }
    const u = [...byU.keys()].find((u) => byU.get(u).length >= 3);
    if (u !== undefined) { const c = byU.get(u); const a = c[0], b = c[c.length - 1]; const ta = editText(lines[a].t, 'num') || editText(lines[a].t, 'append'); if (ta) { const ops = new Map(); getOp(ops, a).repl = [nl(a, ta)]; getOp(ops, b).before = [newLineAt(b, 0)]; mk('same-unit-change-and-insert', ops); } } }
  // delete + change in same unit
  { const c = stmts.filter(deletable); if (c.length) { const i = pick(c); const o = stmts.find((j) => lines[j].u !== lines[i].u && editText(lines[j].t, 'num')); if (o !== undefined) { const ops = new Map(); getOp(ops, i).del = true; getOp(ops, o).repl = [nl(o, editText(lines[o].t, 'num'))]; mk('delete-and-change-elsewhere', ops); } } }
  return E;
}

// ---------- contexts ----------
function randCtx(lang) {
  const before = pick([0, 1, 1, 2, 3]); const after = pick([0, 1, 1, 2, 3]);
  return {
    before, after,
    header: chance(0.5), close: chance(0.35), whole: chance(0.12), wrap: chance(0.3),
    mark: lang === 'rb' ? pick(MARKS.plain.filter((m) => m !== '...')) : pick(MARKS.plain),
    lastStyle: chance(0.3), jsxWords: chance(0.4),
    mIndent: pick(['run', 'run', 'prev', 'zero']),
    blankEdges: chance(0.3),
    crlf: chance(0.1), noFinalNL: chance(0.1), fence: chance(0.1),
  };
}

// ---------- run ----------
const LANGS = ['py', 'js', 'ts', 'jsx', 'tsx', 'rs', 'go', 'java', 'cpp', 'rb', 'lua', 'css', 'html'];
function makeFile(lang) {
  const size = pick(['small', 'small', 'medium', 'large']);
  const n = size === 'small' ? ri(2, 3) : size === 'medium' ? ri(4, 7) : ri(10, 16);
  if (lang === 'jsx' || lang === 'tsx') return {f: jsxFile(lang, n), L: {...JSX, ext: lang}};
  if (lang === 'css') return {f: cssFile(n), L: CSS};
  if (lang === 'html') return {f: htmlFile(n), L: HTML};
  let L = G[lang];
  if (/^(js|ts|java|cpp|rs)$/.test(lang) && chance(0.15)) L = {...L, ind: '\t', tabs: true};
  return {f: genericFile(L, n), L};
}

const shapes = new Map();
const count = (text, t) => text.replace(/\r/g, '').split('\n').filter((x) => x.trim() === t.trim()).length;
function classify(lang, e, lines, got, built, ws) {
  if (ws) return 'I: blank line added/lost next to a marker (ws only)';
  const exp = built.expText;
  const up = [...new Set(got.replace(/\r/g, '').split('\n').map((l) => l.trim()))].filter((t) => t && count(got, t) > count(exp, t));
  if (e.name === 'wrap-line-in-block') for (const [i, o] of e.ops) if (o.repl && count(got, lines[i].t) > count(exp, lines[i].t)) return 'K: line wrapped in a new block also kept unwrapped beside it';
  if (e.name === 'insert-block' && (lang === 'html' || lang === 'jsx' || lang === 'tsx') && got.split('\n').length < exp.split('\n').length) return 'J: new element block closes on a later closing tag, the lines between deleted';
  if (lang === 'html' && e.newUnit) return "D: html new block takes the previous sibling's closing tag";
  for (const [i, o] of e.ops) if (o.del && count(got, lines[i].t) > count(exp, lines[i].t)) return lang === 'html' && built.snippet.split('\n').some((l) => l.trim() && up.includes(l.trim()) && count(built.fileText, l) === 1) ? 'G: html deletion between siblings, unique lines written twice' : 'A: deleted line kept, its context written again';
  if (built.tags.includes('edge-seg') && !/\.\.\.|existing|Rest of/.test(built.snippet.replace(/```\s*$/, '').trimEnd().split('\n').pop())) return 'C: unmarked last segment placed up the file by an edited-line reading';
  for (const [i, o] of e.ops) if (o.repl && count(got, lines[i].t) > count(exp, lines[i].t)) {
    const others = up.filter((t) => t !== lines[i].t.trim());
    if (others.length && others.every((t) => /^(end|\})$/.test(t))) return 'F: a closer written again, old line kept (ruby passes the checks)';
    return others.length ? 'H: edited line + its context written again, old lines kept' : 'E: old line kept beside its edited version';
  }
  if (up.some((t) => /^(end|\})$/.test(t))) return 'F: a closer written again, old line kept (ruby passes the checks)';
  return 'other';
}
const res = {right: 0, declined: 0, wrong: 0, wsOnly: 0, skipped: 0, errors: 0};
const wrongs = []; const declines = new Map(); const byKind = new Map();
const bump = (k, f) => { if (!byKind.has(k)) byKind.set(k, {right: 0, declined: 0, wrong: 0}); byKind.get(k)[f]++; };
const norm = (s) => s.replace(/\r/g, '').split('\n').map((x) => x.trimEnd()).filter((x) => x !== '').join('\n');
let caseNo = 0;
for (const seed of SEEDS) { S = seed >>> 0 || 1; NEWC = 0;
for (const lang of LANGS) {
  for (let c = 0; c < PER; c++) {
    const {f, L} = makeFile(lang);
    const edits = editsFor(lang, L, f);
    const e = edits[c % edits.length];
    const ctx = randCtx(lang);
    if ((L.tabs || lang === 'go') && chance(0.25)) ctx.snipInd = '    ';
    const built = buildCase(lang, L, f, e, ctx);
    const name = `s${seed}/${lang}#${c} ${e.name}${ctx.snipInd ? ' snip-spaces' : L.tabs ? ' tabs' : ''}${built.tags.length ? ' [' + built.tags.join(',') + ']' : ''} ctx=${ctx.before}/${ctx.after}${ctx.header ? 'H' : ''}${ctx.close ? 'C' : ''}${ctx.whole ? 'W' : ''}${ctx.crlf ? ' crlf' : ''}${ctx.noFinalNL ? ' nofinalnl' : ''} n=${f.lines.length}`;
    if (ONLY && !name.includes(ONLY)) continue;
    if (!built.ok) { res.skipped++; continue; }
    if (built.expText === built.fileText) { res.skipped++; continue; }
    caseNo++;
    const path = 'src/f.' + L.ext;
    const req = {format: 'lazy', files: {[path]: built.fileText}, edit: {path, snippet: built.snippet}};
    const p = spawnSync(bin, ['json'], {input: JSON.stringify(req), maxBuffer: 1 << 26});
    let r; try { r = JSON.parse(p.stdout); } catch { res.errors++; console.log('ERROR', name, String(p.stderr).slice(0, 200)); continue; }
    const kind = `${lang} ${e.name}`;
    if (r.status !== 'success') {
      res.declined++; bump(e.name, 'declined');
      const why = (r.text || '').replace(/^(\w+):.*?\): /, '$1: ').replace(/'[^']*'/g, "'…'").replace(/\d+/g, 'N').slice(0, 110);
      if (!declines.has(why)) declines.set(why, {n: 0, ex: [], kinds: {}}); const d = declines.get(why); d.n++; d.kinds[e.name] = (d.kinds[e.name] || 0) + 1;
      if (d.ex.filter((x) => x.kind === e.name).length < 2) d.ex.push({name, kind: e.name, req, text: r.text});
      continue;
    }
    const got = r.data.files[path].content;
    if (got === built.expText) { res.right++; bump(e.name, 'right'); continue; }
    const ws = norm(got) === norm(built.expText);
    if (ws) res.wsOnly++; else res.wrong++;
    bump(e.name, 'wrong');
    const shape = classify(lang, e, f.lines, got, built, ws);
    shapes.set(shape, (shapes.get(shape) || 0) + 1);
    wrongs.push({name: name + ' {' + shape + '}', ws, shape, req, got, exp: built.expText});
  }
}
}
console.log('cases', caseNo, res);
console.log('\nby edit kind:'); for (const [k, v] of [...byKind].sort()) console.log(' ', k.padEnd(30), JSON.stringify(v));
console.log('\nWRONG cases:');
for (const w of wrongs) {
  console.log(`--- ${w.ws ? 'WS-ONLY ' : ''}WRONG ${w.name}`);
  const a = w.exp.split('\n'), b = w.got.split('\n');
  // tiny line diff (LCS)
  const n = a.length, m = b.length; const dp = Array.from({length: n + 1}, () => new Int32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) dp[i][j] = a[i] === b[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
  let i = 0, j = 0; const out = [];
  while (i < n || j < m) { if (i < n && j < m && a[i] === b[j]) { out.push('  ' + a[i]); i++; j++; } else if (j < m && (i >= n || dp[i][j + 1] >= dp[i + 1][j])) { out.push('+ ' + b[j]); j++; } else { out.push('- ' + a[i]); i++; } }
  const keep = new Set(); out.forEach((l, k) => { if (l[0] !== ' ') for (let d = -2; d <= 2; d++) keep.add(k + d); });
  let last = -5; out.forEach((l, k) => { if (keep.has(k)) { if (k > last + 1) console.log('   @@'); console.log('   ' + JSON.stringify(l).slice(1, -1)); last = k; } });
  if (VERBOSE) { console.log('   snippet:'); console.log(w.req.edit.snippet.replace(/^/gm, '   | ')); }
}
console.log('\nWRONG shapes:'); for (const [k, v] of [...shapes].sort((a, b) => b[1] - a[1])) console.log(String(v).padStart(5), k);
console.log('\ndecline reasons:'); for (const [k, v] of [...declines].sort((a, b) => b[1].n - a[1].n)) { console.log(String(v.n).padStart(5), k); if (VERBOSE) console.log('        ' + JSON.stringify(v.kinds)); }
if (DUMP) { fs.mkdirSync(DUMP, {recursive: true}); fs.writeFileSync(DUMP + '/wrong.json', JSON.stringify(wrongs, null, 1)); fs.writeFileSync(DUMP + '/declines.json', JSON.stringify([...declines], null, 1)); }
console.log('\nWRONG shapes (heuristic labels, docs/lazy-passes.md, twenty-second pass, 41):'); for (const [k, v] of [...shapes].sort((a, b) => b[1] - a[1])) console.log(String(v).padStart(5), k);
console.log('\nTOTAL cases', caseNo, 'right', res.right, 'declined', res.declined, 'wrong', res.wrong, '(+ ws-only', res.wsOnly + ')', 'skipped(ambiguous)', res.skipped);
