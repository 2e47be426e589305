/*
 * Number reading and formatting for editcore-lite.wasm and editcore.wasm: libc's strtod and
 * printf read and write any double exactly through long double arithmetic done in software
 * (musl's strtod and fmt_fp; ~20 KB of each module with printf's machinery). The core needs far
 * less: request numbers are short integers or short decimals, and it prints integers, strings
 * and a few %.3f / %.0f values (stats.time_ms, a parameter's bounds). Both are done here exactly
 * for those cases; anything else (a number of more than 15 significant digits or a power of ten
 * beyond 10^+-22, a conversion or flag not listed below) calls ec_wasm_needs_whole(), which
 * raises the module's flag: the run is discarded and made again on editcore-tools.wasm, whose
 * libc does it all. So every answer stays the whole engine's, byte for byte
 * (tests/conformance/lite.mjs; tests/unit/wasm_numbers_test.c checks this file against the native
 * libc's strtod and snprintf).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Defined by the module's flag file (wasm/lite_deferred.c, wasm/full_flag.c). */
void ec_wasm_needs_whole(void);

#ifdef EC_WASM_NUMBERS_TEST /* the native test calls these beside libc's own */
#define strtod ec_wasm_strtod
#define vsnprintf ec_wasm_vsnprintf
#define snprintf ec_wasm_snprintf
#define sprintf ec_wasm_sprintf
#define vsprintf ec_wasm_vsprintf
#endif

/*
 * A JSON number of at most 15 significant digits and a power of ten within 10^+-22 is read
 * exactly (Clinger's fast path: both operands are exact doubles, so the one multiplication or
 * division rounds once, correctly, as libc's reading does).
 */
double strtod(const char *s, char **end) {
  const char *p = s;
  bool neg = *p == '-';
  if (*p == '-' || *p == '+') p++;
  unsigned long long m = 0;
  int digits = 0, exp10 = 0;
  bool any = false, exact = true;
  for (; *p >= '0' && *p <= '9'; p++, any = true) {
    if (!m && *p == '0') continue;
    if (digits < 15) m = m * 10 + (unsigned)(*p - '0'), digits++;
    else exact = false;
  }
  if (*p == '.') {
    for (p++; *p >= '0' && *p <= '9'; p++, any = true) {
      if (!m && *p == '0') { exp10--; continue; }
      if (digits < 15) m = m * 10 + (unsigned)(*p - '0'), digits++, exp10--;
      else exact = false;
    }
  }
  if (!any) {
    if (end) *end = (char *)s;
    return 0;
  }
  if ((*p == 'e' || *p == 'E') && ((p[1] >= '0' && p[1] <= '9') || ((p[1] == '-' || p[1] == '+') && p[2] >= '0' && p[2] <= '9'))) {
    bool eneg = p[1] == '-';
    p += p[1] == '-' || p[1] == '+' ? 2 : 1;
    int e = 0;
    for (; *p >= '0' && *p <= '9'; p++)
      if (e < 100000) e = e * 10 + (*p - '0');
    exp10 += eneg ? -e : e;
  }
  if (end) *end = (char *)p;
  double v = (double)m;
  if (m && (!exact || exp10 < -22 || exp10 > 22)) {
    ec_wasm_needs_whole();
    return 0;
  }
  if (m) {
    /* 10^|exp10| by multiplying: every power up to 10^22 is an exact double (5^22 < 2^53), so
     * each product is exact, the same value a table of them held (184 bytes that gzip hardly
     * shrinks, for a loop of a few). */
    double p10 = 1;
    for (int k = exp10 < 0 ? -exp10 : exp10; k > 0; k--) p10 *= 10;
    v = exp10 < 0 ? v / p10 : v * p10;
  }
  return neg ? -v : v;
}

/* Section - formatting */

typedef struct {
  char *out;
  size_t cap, len; /* len counts what would have been written, as vsnprintf returns */
} sink;

static void put(sink *s, const char *p, size_t n) {
  if (s->len < s->cap) {
    size_t room = s->cap - s->len;
    memcpy(s->out + s->len, p, n < room ? n : room);
  }
  s->len += n;
}

static void pad(sink *s, char c, size_t n) {
  for (; n; n--) put(s, &c, 1);
}

/* `neg` a minus sign, then `digits` zero-extended to `zeros` characters, right-aligned in `width`
 * (with zeros after the sign when `zero_pad`). */
static void field(sink *s, bool neg, const char *digits, size_t n, size_t zeros, size_t width, bool zero_pad) {
  size_t body = neg + (zeros > n ? zeros : n);
  if (!zero_pad && width > body) pad(s, ' ', width - body);
  put(s, "-", neg);
  if (zero_pad && width > body) pad(s, '0', width - body);
  if (zeros > n) pad(s, '0', zeros - n);
  put(s, digits, n);
}

/* The digits of v in base 10 or 16 (upper case) before `end`; returns where they start. */
static char *digits_of(uint64_t v, unsigned base, char *end) {
  char *p = end;
  do *--p = "0123456789ABCDEF"[v % base]; while (v /= base);
  return p;
}

/*
 * v with `prec` (0..3) decimals, rounded half to even as libc does, exactly: v = m * 2^e with m
 * below 2^53, so v * 10^prec = m * 10^prec / 2^-e, whose numerator stays below 2^63. False (the
 * caller defers) for infinities, NaN and magnitudes of 2^64 and more.
 */
static bool fixed(double v, int prec, char *buf, size_t *n, bool *neg) {
  static const uint64_t SCALE[] = {1, 10, 100, 1000};
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  *neg = bits >> 63;
  int ex = (int)(bits >> 52 & 0x7ff);
  uint64_t m = bits & ((1ull << 52) - 1);
  if (ex == 0x7ff) return false;
  if (ex) m |= 1ull << 52;
  else ex = 1;
  int e = ex - 1075; /* v = m * 2^e */
  uint64_t whole, frac; /* v * 10^prec rounded, split at the point */
  if (e >= 0) {
    if (e > 11) return false; /* 2^64 and beyond */
    whole = m << e;
    frac = 0;
  } else {
    uint64_t num = m * SCALE[prec];
    int k = -e;
    uint64_t q, r, half;
    bool above, tie;
    if (k >= 64) {
      q = 0, above = false, tie = false; /* num < 2^63 <= 2^(k-1): below half a unit */
    } else {
      q = num >> k, r = num & ((1ull << k) - 1), half = 1ull << (k - 1);
      above = r > half, tie = r == half;
    }
    if (above || (tie && (q & 1))) q++;
    whole = q / SCALE[prec];
    frac = q % SCALE[prec];
  }
  char tmp[40];
  char *w = digits_of(whole, 10, tmp + sizeof tmp);
  size_t wn = (size_t)(tmp + sizeof tmp - w);
  memcpy(buf, w, wn);
  *n = wn;
  if (prec) {
    buf[(*n)++] = '.';
    for (int d = prec - 1; d >= 0; d--) buf[*n + (size_t)d] = (char)('0' + frac % 10), frac /= 10;
    *n += (size_t)prec;
  }
  return true;
}

/*
 * What the core's formats use: the flag 0, a width in digits, a precision (digits or *), the
 * sizes l, ll and z, and the conversions %, c, s, d, u, X and f. Anything else (the flags - + #
 * and space, a width of *, the sizes hh, h, j, t and L, the conversions i, o, x, e, g, a, p, n)
 * defers to the whole engine's libc.
 */
int vsnprintf(char *restrict out, size_t cap, const char *restrict fmt, va_list ap) {
  sink s = {out, cap, 0};
  for (const char *p = fmt; *p;) {
    if (*p != '%') {
      size_t n = 0;
      while (p[n] && p[n] != '%') n++;
      put(&s, p, n);
      p += n;
      continue;
    }
    p++;
    bool zero = *p == '0';
    size_t width = 0;
    while (*p >= '0' && *p <= '9') width = width * 10 + (size_t)(*p++ - '0');
    int prec = -1;
    if (*p == '.') {
      p++;
      if (*p == '*') {
        prec = va_arg(ap, int);
        p++;
      } else
        for (prec = 0; *p >= '0' && *p <= '9';) prec = prec * 10 + (*p++ - '0');
    }
    int size = 0; /* 0 int, 1 long, 2 long long, 3 size_t */
    if (*p == 'l') size = p[1] == 'l' ? (p += 2, 2) : (p++, 1);
    else if (*p == 'z') size = 3, p++;
    char c = *p ? *p++ : 0;
    char tmp[48], *end = tmp + sizeof tmp;
    switch (c) {
    case '%':
      put(&s, "%", 1);
      break;
    case 'c':
      *--end = (char)va_arg(ap, int);
      field(&s, false, end, 1, 0, width, false);
      break;
    case 's': {
      const char *str = va_arg(ap, const char *);
      if (!str) str = "(null)";
      size_t n = 0;
      if (prec < 0) n = strlen(str);
      else while (n < (size_t)prec && str[n]) n++;
      field(&s, false, str, n, 0, width, false);
      break;
    }
    case 'd':
    case 'u':
    case 'X': {
      uint64_t u;
      bool neg = false;
      if (c == 'd') {
        long long v = size == 2 ? va_arg(ap, long long) : size == 1 ? va_arg(ap, long) : size == 3 ? (long long)va_arg(ap, ptrdiff_t) : va_arg(ap, int);
        neg = v < 0;
        u = neg ? 0 - (uint64_t)v : (uint64_t)v;
      } else
        u = size == 2 ? va_arg(ap, unsigned long long) : size == 1 ? va_arg(ap, unsigned long) : size == 3 ? (uint64_t)va_arg(ap, size_t) : va_arg(ap, unsigned);
      char *d = prec == 0 && u == 0 ? end : digits_of(u, c == 'X' ? 16 : 10, end);
      field(&s, neg, d, (size_t)(end - d), prec < 0 ? 0 : (size_t)prec, width, zero && prec < 0);
      break;
    }
    case 'f': {
      double v = va_arg(ap, double);
      size_t n;
      bool neg;
      if (prec < 0) prec = 6;
      if (prec > 3 || !fixed(v, prec, tmp, &n, &neg)) {
        ec_wasm_needs_whole();
        break;
      }
      field(&s, neg, tmp, n, 0, width, zero);
      break;
    }
    default: /* see above: the whole engine's libc prints them */
      ec_wasm_needs_whole();
      p = "";
      break;
    }
  }
  if (cap) out[s.len < cap ? s.len : cap - 1] = 0;
  return (int)s.len;
}

int snprintf(char *restrict out, size_t cap, const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(out, cap, fmt, ap);
  va_end(ap);
  return n;
}

int vsprintf(char *restrict out, const char *restrict fmt, va_list ap) { return vsnprintf(out, SIZE_MAX, fmt, ap); }

int sprintf(char *restrict out, const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(out, SIZE_MAX, fmt, ap);
  va_end(ap);
  return n;
}

#ifdef __EMSCRIPTEN__
/* Emscripten's compiler renames a printf call with no floating-point argument to its integer-only
 * twin (sprintf -> siprintf, __small_sprintf); libc defines those in the same objects as the
 * originals, so they are defined here too, or the linker would bring libc's in beside these. */
int vsniprintf(char *restrict, size_t, const char *restrict, va_list) __attribute__((alias("vsnprintf")));
int __small_vsnprintf(char *restrict, size_t, const char *restrict, va_list) __attribute__((alias("vsnprintf")));
int vsiprintf(char *restrict, const char *restrict, va_list) __attribute__((alias("vsprintf")));
int __small_vsprintf(char *restrict, const char *restrict, va_list) __attribute__((alias("vsprintf")));
int siprintf(char *restrict, const char *restrict, ...) __attribute__((alias("sprintf")));
int __small_sprintf(char *restrict, const char *restrict, ...) __attribute__((alias("sprintf")));
#endif
