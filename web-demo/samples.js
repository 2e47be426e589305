// The samples a visitor sees first: one per format, all on the same small file, plus one
// failing edit (a SEARCH block the model misremembered) whose candidates the page shows in
// place. The browser tests apply each of them through the worker and check what is rendered.

export const CART_PY = `from dataclasses import dataclass


@dataclass
class Item:
    name: str
    price: float
    qty: int = 1


def total(items):
    result = 0
    for item in items:
        result += item.price * item.qty
    return result


def average(items):
    if not items:
        return 0
    return total(items) / len(items)
`;

/** id, label, format, the file (path and content) and the edit's fields. */
export const SAMPLES = [
  { id: "replace", label: "replace: re-indented old_string", format: "replace", path: 'cart.py', content: CART_PY,
    edit: { old_string: `if not items:
    return 0
return total(items) / len(items)`, new_string: `if not items:
    return 0.0
count = sum(item.qty for item in items)
return total(items) / count` } },
  { id: "search_replace", label: "SEARCH/REPLACE (two blocks)", format: "search_replace", path: 'cart.py', content: CART_PY,
    edit: { text: `------- SEARCH
    price: float
    qty: int = 1
=======
    price: float
    qty: int = 1
    discount: float = 0.0
+++++++ REPLACE

------- SEARCH
        result += item.price * item.qty
=======
        result += item.price * item.qty * (1 - item.discount)
+++++++ REPLACE
` } },
  { id: "unified_diff", label: "unified diff, wrong line numbers", format: "unified_diff", path: 'cart.py', content: CART_PY,
    edit: { text: `--- a/cart.py
+++ b/cart.py
@@ -40,4 +40,4 @@
 def total(items):
-    result = 0
+    result = 0.0
     for item in items:
` } },
  { id: "codex_patch", label: "Codex patch", format: "codex_patch", path: 'cart.py', content: CART_PY,
    edit: { text: `*** Begin Patch
*** Update File: cart.py
@@ def average(items):
     if not items:
-        return 0
+        raise ValueError("average of an empty cart")
     return total(items) / len(items)
*** End Patch
` } },
  { id: "whole_file", label: "whole file", format: "whole_file", path: 'cart.py', content: CART_PY,
    edit: { content: `from dataclasses import dataclass


@dataclass
class Item:
    name: str
    price: float
    qty: int = 1


def total(items):
    return sum(item.price * item.qty for item in items)


def average(items):
    if not items:
        return 0
    return total(items) / len(items)
` } },
  { id: "insert", label: "insert after line 1", format: "insert", path: 'cart.py', content: CART_PY,
    edit: { insert_line: 1, new_str: "from typing import Iterable" } },
  { id: "lazy", label: "lazy snippet", format: "lazy", path: 'cart.py', content: CART_PY,
    edit: { snippet: `# ... existing code ...
def total(items):
    """The cart's total price."""
    result = 0
# ... existing code ...
` } },
  { id: "reply", label: "a whole reply (detect)", format: "reply", path: 'cart.py', content: CART_PY,
    edit: { text: `Empty carts should average to a float as well. In cart.py:

\`\`\`python
<<<<<<< SEARCH
    if not items:
        return 0
=======
    if not items:
        return 0.0
>>>>>>> REPLACE
\`\`\`

That keeps the return type consistent.
` } },
  { id: "fail", label: "failing edit (misremembered)", format: "search_replace", path: 'cart.py', content: CART_PY,
    edit: { text: `------- SEARCH
def total(items):
    result = 0
    for it in items:
        result += it.cost
    return result
=======
def total(items):
    result = 0
    for it in items:
        result += it.cost * it.qty
    return result
+++++++ REPLACE
` } },
];
