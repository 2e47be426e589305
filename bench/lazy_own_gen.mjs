#!/usr/bin/env node
// Our own lazy snippets in the shapes that went wrong on real snippets nobody here had seen
// (issue 30, "Lazy snippets"), in eight languages, written for this repository (no third-party
// text): a file, a snippet as a model writes one, and the intended result, built from the file by
// the edits listed with the case (so the intent reads next to the snippet). Writes
// bench/lazy_own.jsonl in the set's format (../shared/lazy/README.md), for
//   node bench/lazy_real.mjs --set bench/lazy_own.jsonl [--only checked|flagged]
// `expect_quality` is "checked" for the cases tuned on and "flagged" for the held-out ones
// (measured once, after the rules were written; ACCURACY.md, "Lazy invariants").
// Where the snippet leaves the place or the reading open, the intended result is still given (what
// the model meant): a decline then counts as declined, a different success as wrong.
//
//   node bench/lazy_own_gen.mjs   (rewrites bench/lazy_own.jsonl)
import { writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const M = (c = '//', i = '') => `${i}${c} ... existing code ...`;

// Applies [from, to] edits in order, each to the first occurrence (and checks it occurs).
function apply(text, edits, id) {
  for (const [from, to] of edits) {
    const k = text.indexOf(from);
    if (k < 0) throw new Error(`${id}: edit text not found: ${from.slice(0, 60)}`);
    text = text.slice(0, k) + to + text.slice(k + from.length);
  }
  return text;
}

// An admin page's tabs, for the copied-sibling case: each tab the same markup, its own rows.
const tab = (name, title, cell) => `        {activeTab === '${name}' && (
          <div className="space-y-8">
            <h3>${title}</h3>
            <Table>
              {rows.${name}.map(m => (
                <TableRow key={m.id}>
                  <TableCell>{m.title}</TableCell>
                  ${cell}
                </TableRow>
              ))}
            </Table>
          </div>
        )}
`;
const TRASH = '<Trash2 className="h-4 w-4" onClick={() => drop(m.id)} />';
const ADMIN_HEAD = `export default function Admin() {
  const [activeTab, setActiveTab] = useState('a');
  return (
    <div className="flex">
      <main className="flex-1">
        <header>Command Center</header>

`;
const ADMIN_TAIL = `      </main>
    </div>
  );
}
`;

const FILES = {
  'inventory.py': `import json
import os


class Item:
    def __init__(self, name, qty):
        self.name = name
        self.qty = qty

    def to_dict(self):
        return {"name": self.name, "qty": self.qty}


class Inventory:
    def __init__(self, path):
        self.path = path
        self.items = {}

    def load(self):
        if not os.path.exists(self.path):
            return
        with open(self.path) as f:
            raw = json.load(f)
        for entry in raw:
            self.items[entry["name"]] = Item(entry["name"], entry["qty"])

    def add(self, name, qty):
        item = self.items.get(name)
        if item is None:
            self.items[name] = Item(name, qty)
        else:
            item.qty += qty

    def save(self):
        data = [item.to_dict() for item in self.items.values()]
        with open(self.path, "w") as f:
            json.dump(data, f)


def load_inventory(path):
    inv = Inventory(path)
    inv.load()
    return inv


def main():
    inv = load_inventory("stock.json")
    inv.add("apple", 3)
    inv.save()


if __name__ == "__main__":
    main()
`,
  'renderer.cpp': `#include <vector>
#include <string>

struct Color {
    float r, g, b;
};

class Renderer {
public:
    Renderer(int w, int h) : width_(w), height_(h) {}

    void resize(int w, int h) {
        width_ = w;
        height_ = h;
    }

    void frame(const Color& background) {
        clear(background);

        drawScene();
        drawOverlay();
        present();
    }

private:
    void clear(const Color& c) {
        color_ = c;
    }

    void drawScene() {
        for (auto& s : shapes_) {
            s.draw();
        }
    }

    void drawOverlay() {
        overlayDirty_ = false;
    }

    void present() {
        frames_++;
    }

    int width_, height_;
    Color color_{0, 0, 0};
    std::vector<Shape> shapes_;
    bool overlayDirty_ = true;
    long frames_ = 0;
};

int main() {
    Renderer r(640, 480);
    r.frame({0.1f, 0.1f, 0.1f});
    return 0;
}
`,
  'palette.rs': `use std::env;
const SHADES: &[u8] = b" .:-=+*#%@";
const MAX_ITER: usize = 64;

struct Options {
    width: usize,
    height: usize,
}

impl Options {
    fn new() -> Self {
        Options { width: 80, height: 24 }
    }
}

fn parse() -> Options {
    let mut o = Options::new();
    for a in env::args().skip(1) {
        if let Some(w) = a.strip_prefix("w=") {
            o.width = w.parse().unwrap_or(o.width);
        }
    }
    o
}

fn shade(i: usize) -> char {
    let idx = i * (SHADES.len() - 1) / MAX_ITER;
    SHADES[idx] as char
}

fn main() {
    let o = parse();
    for y in 0..o.height {
        let line: String = (0..o.width).map(|x| shade((x + y) % MAX_ITER)).collect();
        println!("{}", line);
    }
}
`,
  'store.ts': `import { readFileSync, writeFileSync } from "fs";

export interface Entry {
  key: string;
  value: number;
}

const DEFAULT_PATH = "store.json";

export class Store {
  private entries: Map<string, number> = new Map();

  constructor(private path: string = DEFAULT_PATH) {}

  load(): void {
    const raw = JSON.parse(readFileSync(this.path, "utf8")) as Entry[];
    for (const e of raw) {
      this.entries.set(e.key, e.value);
    }
  }

  get(key: string): number | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: number): void {
    this.entries.set(key, value);
  }

  save(): void {
    const out: Entry[] = [];
    for (const [key, value] of this.entries) {
      out.push({ key, value });
    }
    writeFileSync(this.path, JSON.stringify(out));
  }
}

export function openStore(path?: string): Store {
  const s = new Store(path);
  s.load();
  return s;
}
`,
  'server.go': `package main

import (
	"fmt"
	"net/http"
)

type Server struct {
	addr  string
	hits  int
}

func NewServer(addr string) *Server {
	return &Server{addr: addr}
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	s.hits++
	fmt.Fprintf(w, "hello %d", s.hits)
}

func (s *Server) Start() error {
	http.HandleFunc("/", s.handle)
	return http.ListenAndServe(s.addr, nil)
}

func main() {
	s := NewServer(":8080")
	if err := s.Start(); err != nil {
		fmt.Println(err)
	}
}
`,
  'Shapes.java': `package shapes;

import java.util.ArrayList;
import java.util.List;

public class Shapes {
    private final List<Double> areas = new ArrayList<>();

    public void addCircle(double r) {
        areas.add(Math.PI * r * r);
    }

    public void addSquare(double s) {
        areas.add(s * s);
    }

    public double total() {
        double sum = 0;
        for (double a : areas) {
            sum += a;
        }
        return sum;
    }

    public static void main(String[] args) {
        Shapes s = new Shapes();
        s.addCircle(1.0);
        s.addSquare(2.0);
        System.out.println(s.total());
    }
}
`,
  'util.lua': `local M = {}

local function trim(s)
  return (s:gsub("^%s+", ""):gsub("%s+$", ""))
end

local function split(s, sep)
  local out = {}
  for part in string.gmatch(s, "([^" .. sep .. "]+)") do
    out[#out + 1] = trim(part)
  end
  return out
end

function M.parse_line(line)
  local cells = split(line, ",")
  return cells
end

function M.join(cells)
  return table.concat(cells, ",")
end

return M
`,
  'report.rb': `require "json"

class Report
  def initialize(rows)
    @rows = rows
  end

  def total
    @rows.sum { |r| r[:amount] }
  end

  def to_json
    JSON.generate({ total: total, count: @rows.size })
  end
end

def load_rows(path)
  JSON.parse(File.read(path), symbolize_names: true)
end

def main
  report = Report.new(load_rows("rows.json"))
  puts report.to_json
end

main if $PROGRAM_NAME == __FILE__
`,
  'admin.tsx': `${ADMIN_HEAD}${tab('withdrawals', 'Withdrawals', '<TableCell>{m.amount}</TableCell>')}
${tab('movies', 'Movies', TRASH)}${ADMIN_TAIL}`,
};

// id, file, snippet, edits giving the intended result, held out?, shape note.
const CASES = [
  // ---- (a) new lines, a blank line, then a marker: the line they replace kept between them
  { id: 'cpp-clear-replaced-by-gradient', file: 'renderer.cpp', held: false, shape: 'a',
    snippet: `${M()}
    void frame(const Color& background) {
        drawGradient(background);

        ${M()}
`,
    edits: [['        clear(background);\n', '        drawGradient(background);\n']] },
  { id: 'py-first-statement-replaced', file: 'inventory.py', held: false, shape: 'a',
    snippet: `${M('#')}
    def load(self):
        if not self.path or not os.path.exists(self.path):
            return

        ${M('#')}
`,
    edits: [['        if not os.path.exists(self.path):\n', '        if not self.path or not os.path.exists(self.path):\n']] },
  { id: 'ts-load-guard-added-above', file: 'store.ts', held: true, shape: 'a',
    snippet: `  load(): void {
    this.entries.clear();

    ${M()}
  }
`,
    edits: [['  load(): void {\n', '  load(): void {\n    this.entries.clear();\n\n']] },
  { id: 'go-handle-body-replaced', file: 'server.go', held: true, shape: 'a',
    snippet: `${M()}
func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	s.hits += 1

	${M()}
}
`,
    edits: [['\ts.hits++\n', '\ts.hits += 1\n']] },
  // near miss: the new statement is inserted (no blank line before the marker)
  { id: 'py-insert-at-top-no-blank', file: 'inventory.py', held: false, shape: 'a-near',
    snippet: `${M('#')}
    def save(self):
        os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
        ${M('#')}
`,
    edits: [['    def save(self):\n', '    def save(self):\n        os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)\n']] },
  // near miss: imports added, a blank line, then a marker
  { id: 'py-imports-extended-blank', file: 'inventory.py', held: false, shape: 'a-near',
    snippet: `import json
import os
import sys

${M('#')}
`,
    edits: [['import os\n', 'import os\nimport sys\n']] },
  { id: 'rs-use-extended-blank', file: 'palette.rs', held: true, shape: 'a-near',
    snippet: `use std::env;
use std::io::Write;

${M()}
`,
    edits: [['use std::env;\n', 'use std::env;\nuse std::io::Write;\n']] },

  // ---- (b) a definition rewritten under the same name, the old one kept beside it
  { id: 'rs-const-table-made-array', file: 'palette.rs', held: false, shape: 'b',
    snippet: `use std::env;
const SHADES: [char; 10] = [' ', '.', ':', '-', '=', '+', '*', '#', '%', '@'];
const MAX_ITER: usize = 64;
${M()}
fn shade(i: usize) -> char {
    let idx = i * (SHADES.len() - 1) / MAX_ITER;
    SHADES[idx]
}
${M()}
`,
    edits: [['const SHADES: &[u8] = b" .:-=+*#%@";\n', "const SHADES: [char; 10] = [' ', '.', ':', '-', '=', '+', '*', '#', '%', '@'];\n"],
      ['    SHADES[idx] as char\n', '    SHADES[idx]\n']] },
  { id: 'rs-const-table-multiline', file: 'palette.rs', held: false, shape: 'b',
    snippet: `${M()}
use std::env;
const SHADES: [char; 10] = [
    ' ', '.', ':', '-', '=', '+', '*', '#', '%', '@',
];
const COLORS: [u8; 4] = [31, 32, 33, 34];
${M()}
`,
    edits: [['const SHADES: &[u8] = b" .:-=+*#%@";\n', "const SHADES: [char; 10] = [\n    ' ', '.', ':', '-', '=', '+', '*', '#', '%', '@',\n];\nconst COLORS: [u8; 4] = [31, 32, 33, 34];\n"]] },
  { id: 'ts-const-redefined', file: 'store.ts', held: true, shape: 'b',
    snippet: `${M()}
}

const DEFAULT_PATH = process.env.STORE_PATH ?? "store.json";
const BACKUP_SUFFIX = ".bak";

${M()}
`,
    edits: [['const DEFAULT_PATH = "store.json";\n', 'const DEFAULT_PATH = process.env.STORE_PATH ?? "store.json";\nconst BACKUP_SUFFIX = ".bak";\n']] },
  { id: 'py-function-redefined-after-other', file: 'inventory.py', held: false, shape: 'b',
    snippet: `${M('#')}
def load_inventory(path):
    inv = Inventory(path)
    inv.load()
    return inv


def load_inventory(path, create=False):
    inv = Inventory(path)
    if not create:
        inv.load()
    return inv
${M('#')}
`,
    /* the snippet writes both itself: both are meant (invariant b lets them be) */
    edits: [['    inv.load()\n    return inv\n', '    inv.load()\n    return inv\n\n\ndef load_inventory(path, create=False):\n    inv = Inventory(path)\n    if not create:\n        inv.load()\n    return inv\n']] },
  { id: 'lua-function-rewritten-elsewhere', file: 'util.lua', held: true, shape: 'b',
    snippet: `${M('--')}
function M.join(cells)
  return table.concat(cells, ",")
end

local function trim(s)
  return (s:gsub("^%s*(.-)%s*$", "%1"))
end

${M('--')}
`,
    /* meant: trim rewritten (where it is: split uses it, a Lua local must come first) */
    edits: [['  return (s:gsub("^%s+", ""):gsub("%s+$", ""))\n', '  return (s:gsub("^%s*(.-)%s*$", "%1"))\n']] },

  // ---- (c) a new block between two markers only: placed where its place is unique
  { id: 'cpp-member-between-markers', file: 'renderer.cpp', held: false, shape: 'c',
    snippet: `${M()}
    void drawGrid() {
        for (auto& s : shapes_) {
            s.draw();
        }
    }
${M()}
`,
    edits: [['    void drawOverlay() {\n', '    void drawGrid() {\n        for (auto& s : shapes_) {\n            s.draw();\n        }\n    }\n\n    void drawOverlay() {\n']] },
  { id: 'rs-fn-between-markers-copied-line', file: 'palette.rs', held: false, shape: 'c',
    snippet: `${M()}

fn shade_inverse(i: usize) -> char {
    let idx = i * (SHADES.len() - 1) / MAX_ITER;
    SHADES[SHADES.len() - 1 - idx] as char
}

${M()}
`,
    edits: [['fn main() {\n', 'fn shade_inverse(i: usize) -> char {\n    let idx = i * (SHADES.len() - 1) / MAX_ITER;\n    SHADES[SHADES.len() - 1 - idx] as char\n}\n\nfn main() {\n']] },
  { id: 'java-method-between-markers', file: 'Shapes.java', held: true, shape: 'c',
    snippet: `${M()}
    public void addRectangle(double w, double h) {
        areas.add(w * h);
    }
${M()}
`,
    edits: [['    public double total() {\n', '    public void addRectangle(double w, double h) {\n        areas.add(w * h);\n    }\n\n    public double total() {\n']] },
  // near miss: the markers stand for nothing (the place is unique)
  { id: 'ts-method-between-adjacent-anchors', file: 'store.ts', held: false, shape: 'c-near',
    snippet: `${M()}
  get(key: string): number | undefined {
    return this.entries.get(key);
  }
${M()}
  has(key: string): boolean {
    return this.entries.has(key);
  }
${M()}
  set(key: string, value: number): void {
${M()}
`,
    edits: [['  set(key: string, value: number): void {\n', '  has(key: string): boolean {\n    return this.entries.has(key);\n  }\n\n  set(key: string, value: number): void {\n']] },
  { id: 'go-func-after-anchor', file: 'server.go', held: true, shape: 'c-near',
    snippet: `${M()}
func NewServer(addr string) *Server {
	return &Server{addr: addr}
}

func (s *Server) Hits() int {
	return s.hits
}
${M()}
`,
    edits: [['func (s *Server) handle(', 'func (s *Server) Hits() int {\n\treturn s.hits\n}\n\nfunc (s *Server) handle(']] },

  // ---- (d) Python: a top-level function after a marker, the file must still parse
  { id: 'py-top-level-after-method', file: 'inventory.py', held: false, shape: 'd',
    snippet: `${M('#')}
    def save(self):
        data = [item.to_dict() for item in self.items.values()]
        with open(self.path, "w") as f:
            json.dump(data, f, indent=2)


def export_csv(inv, path):
    with open(path, "w") as f:
        for item in inv.items.values():
            f.write(f"{item.name},{item.qty}\\n")


${M('#')}
`,
    edits: [['            json.dump(data, f)\n', '            json.dump(data, f, indent=2)\n\n\ndef export_csv(inv, path):\n    with open(path, "w") as f:\n        for item in inv.items.values():\n            f.write(f"{item.name},{item.qty}\\n")\n']] },
  { id: 'py-top-level-dedented-snippet', file: 'inventory.py', held: true, shape: 'd',
    snippet: `def add(self, name, qty):
    if qty <= 0:
        raise ValueError("qty must be positive")
    ${M('#')}

${M('#')}

def remove_all(inv):
    inv.items.clear()
`,
    edits: [['    def add(self, name, qty):\n', '    def add(self, name, qty):\n        if qty <= 0:\n            raise ValueError("qty must be positive")\n'],
      ['if __name__ == "__main__":\n    main()\n', 'if __name__ == "__main__":\n    main()\n\n\ndef remove_all(inv):\n    inv.items.clear()\n']] },
  { id: 'py-method-added-end-of-class', file: 'inventory.py', held: false, shape: 'd-near',
    snippet: `${M('#')}
    def save(self):
        data = [item.to_dict() for item in self.items.values()]
        with open(self.path, "w") as f:
            json.dump(data, f)

    def count(self):
        return sum(item.qty for item in self.items.values())


def load_inventory(path):
${M('#')}
`,
    edits: [['            json.dump(data, f)\n', '            json.dump(data, f)\n\n    def count(self):\n        return sum(item.qty for item in self.items.values())\n']] },
  { id: 'rb-method-added', file: 'report.rb', held: true, shape: 'd-near',
    snippet: `${M('#')}
  def total
    @rows.sum { |r| r[:amount] }
  end

  def average
    @rows.empty? ? 0 : total / @rows.size
  end
${M('#')}
`,
    edits: [['  def to_json\n', '  def average\n    @rows.empty? ? 0 : total / @rows.size\n  end\n\n  def to_json\n']] },
  { id: 'lua-function-added-after-split', file: 'util.lua', held: false, shape: 'c-near',
    snippet: `${M('--')}
  return out
end

local function count(s, sep)
  return #split(s, sep)
end
${M('--')}
`,
    edits: [['  return out\nend\n', '  return out\nend\n\nlocal function count(s, sep)\n  return #split(s, sep)\nend\n']] },
  // ---- a new block written from a sibling's markup (the wild set's seventh batch, admin/page.tsx):
  // its copied lines must not anchor on the sibling, and the marker after it keeps both tabs
  { id: 'tsx-new-tab-copied-from-sibling', file: 'admin.tsx', held: true, shape: 'copied-sibling',
    snippet: `${M()}
        <header>Command Center</header>

${tab('inventory', 'Inventory', TRASH)}
        {/* Existing tabs follow... */}
${ADMIN_TAIL}`,
    edits: [['        <header>Command Center</header>\n\n', `        <header>Command Center</header>\n\n${tab('inventory', 'Inventory', TRASH)}\n`]] },
];

const lines = [];
for (const c of CASES) {
  const original = FILES[c.file];
  const want = apply(original, c.edits, c.id);
  const markers = c.snippet.split('\n').filter((l) => /\.\.\. existing code \.\.\./.test(l)).length;
  const sl = c.snippet.trimEnd().split('\n');
  lines.push(JSON.stringify({
    id: `editcore/lazy-own#${c.id}`, peer: 'editcore', source: 'editcore bench/lazy_own_gen.mjs (own case, issue 30)', format: 'lazy',
    files: { [c.file]: original }, edit: { path: c.file, snippet: c.snippet },
    expect: { ok: true, files: { [c.file]: want } }, expect_quality: c.held ? 'flagged' : 'checked',
    meta: { model: c.held ? 'held-out' : 'tuning', query_id: c.id, shape: { markers, diff_style: false,
      leading_marker: /existing code/.test(sl[0]), trailing_marker: /existing code/.test(sl[sl.length - 1]) }, invariant: c.shape },
  }));
}
writeFileSync(join(here, 'lazy_own.jsonl'), lines.join('\n') + '\n');
console.log(`${CASES.length} cases (${CASES.filter((c) => c.held).length} held out) -> bench/lazy_own.jsonl`);
