/*
 * The MCP filesystem reference's reading tools beside read_text_file (peers/mcp_filesystem.md):
 *   read_media_file      the bytes as base64 in an image, audio or embedded-resource content block,
 *                        its MIME type from the extension (the reference's table)
 *   read_multiple_files  each file's text under its path, a failed one as "path: Error - why",
 *                        without stopping the others; the parts joined with "\n---\n"
 *   get_file_info        size, the three times (as JavaScript's Date prints them, in the host's
 *                        time zone), type and permission bits
 * Same names, parameters, answers and errors; the host only reads.
 */
#include "mcp_common.h"
#include "../base/base64.h"
#include "../base/str.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

extern const ec_tool ec_tool_mcp_read_media_file, ec_tool_mcp_read_multiple_files, ec_tool_mcp_get_file_info;

static const mcp_field PATH_ONLY[] = {{"path", MCP_STRING, true, 0, NULL}, {0}};

/* Section - read_media_file */

static const char *last_of(ec_str s, char ch) {
  for (size_t i = s.len; i-- > 0;)
    if (s.ptr[i] == ch) return s.ptr + i;
  return NULL;
}

/* path.extname of the last segment, lower-cased ASCII: "" for none or a leading dot only. */
static void extension(ec_str p, char *out, size_t cap) {
  const char *slash = last_of(p, '/');
  ec_str base = slash ? ec_str_make(slash + 1, p.len - (size_t)(slash + 1 - p.ptr)) : p;
  const char *dot = last_of(base, '.');
  out[0] = 0;
  if (!dot || dot == base.ptr) return;
  size_t n = base.len - (size_t)(dot - base.ptr);
  if (n >= cap) return;
  for (size_t i = 0; i < n; i++) out[i] = (char)(dot[i] >= 'A' && dot[i] <= 'Z' ? dot[i] + 32 : dot[i]);
  out[n] = 0;
}

static const char *mime_of(ec_str path) {
  static const char *const TABLE[][2] = {
      {".png", "image/png"},   {".jpg", "image/jpeg"},  {".jpeg", "image/jpeg"}, {".gif", "image/gif"},
      {".webp", "image/webp"}, {".bmp", "image/bmp"},   {".svg", "image/svg+xml"}, {".mp3", "audio/mpeg"},
      {".wav", "audio/wav"},   {".ogg", "audio/ogg"},   {".flac", "audio/flac"}};
  char ext[16];
  extension(path, ext, sizeof ext);
  for (size_t i = 0; i < sizeof TABLE / sizeof TABLE[0]; i++)
    if (!strcmp(ext, TABLE[i][0])) return TABLE[i][1];
  return "application/octet-stream";
}

/* Node's pathToFileURL(p).href for an absolute POSIX path: the WHATWG path percent-encode set,
 * and "%", "\\", newline, CR and tab, which Node encodes beforehand. */
static void file_url(ec_buf *b, ec_str p) {
  static const char HEX[] = "0123456789ABCDEF";
  ec_buf_append_cstr(b, "file://");
  for (size_t i = 0; i < p.len; i++) {
    unsigned char ch = (unsigned char)p.ptr[i];
    bool enc = ch <= 0x20 || ch >= 0x7F || strchr("\"#<>?`{}%\\", ch);
    if (!enc) { ec_buf_append_char(b, (char)ch); continue; }
    char e[3] = {'%', HEX[ch >> 4], HEX[ch & 15]};
    ec_buf_append(b, e, 3);
  }
}

static void media_plan(ec_tool_call *c) {
  ec_str abs;
  mcp_path_args(c, &ec_tool_mcp_read_media_file, PATH_ONLY, MCP_READ_BYTES, &abs);
}

static void media_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_read_media_file;
  ec_str abs;
  if (!mcp_path_args(c, t, PATH_ONLY, MCP_READ_BYTES, &abs)) return;
  const ec_obs *o = mcp_observed(c, t, abs, "open", "read");
  if (!o) return;
  ec_str real = mcp_shown(o, abs);
  const char *mime = mime_of(real);
  bool inline_kind = !strncmp(mime, "image/", 6) || !strncmp(mime, "audio/", 6);
  ec_buf item;
  ec_buf_init(&item, ec_arena_allocator(c->a));
  if (inline_kind) {
    ec_buf_printf(&item, "{\"type\":\"%.5s\",\"data\":\"", mime);
    ec_base64_append(&item, o->bytes.ptr, o->bytes.len);
    ec_buf_printf(&item, "\",\"mimeType\":\"%s\"}", mime);
  } else {
    ec_buf_append_cstr(&item, "{\"type\":\"resource\",\"resource\":{\"uri\":");
    ec_buf url;
    ec_buf_init(&url, ec_arena_allocator(c->a));
    file_url(&url, real);
    ec_str u = ec_buf_finish(&url, c->a);
    if (!u.ptr) { c->oom = true; ec_buf_free(&item); return; }
    ec_jstr(&item, u);
    ec_buf_printf(&item, ",\"mimeType\":\"%s\",\"blob\":\"", mime);
    ec_base64_append(&item, o->bytes.ptr, o->bytes.len);
    ec_buf_append_cstr(&item, "\"}}");
  }
  ec_str it = ec_buf_finish(&item, c->a);
  if (!it.ptr) { c->oom = true; return; }
  ec_buf_printf(&c->result, "{\"content\":[%.*s],\"structuredContent\":{\"content\":[%.*s]}}", (int)it.len, it.ptr, (int)it.len,
                it.ptr);
  c->done = true;
}

const ec_tool ec_tool_mcp_read_media_file = {"mcp/read_media_file", media_plan, media_run, mcp_fail, true};

/* Section - read_multiple_files */

static const mcp_field MULTI_FIELDS[] = {{"paths", MCP_STRINGS, true, 1, NULL}, {0}};

static void multi_plan(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_read_multiple_files;
  if (!mcp_check_args(c, t, MULTI_FIELDS)) return;
  for (const cJSON *p = mcp_arg(c, "paths")->child; p && !c->oom; p = p->next) {
    ec_str abs, why;
    mcp_path_quiet(c, ec_json_reader_string(c->reader, p->valuestring), &abs, &why, MCP_READ_CONTENT);
  }
}

static void multi_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_read_multiple_files;
  if (!mcp_check_args(c, t, MULTI_FIELDS)) return;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(c->a));
  for (const cJSON *p = mcp_arg(c, "paths")->child; p && !c->oom; p = p->next) {
    ec_str path = ec_json_reader_string(c->reader, p->valuestring), abs, why;
    if (p != mcp_arg(c, "paths")->child) ec_buf_append_cstr(&b, "\n---\n");
    ec_buf_append_str(&b, path);
    if (mcp_path_quiet(c, path, &abs, &why, MCP_READ_CONTENT)) {
      const ec_obs *o = ec_tool_obs(c, abs);
      why = mcp_obs_problem(c, o, abs, "open", "read");
      if (!why.ptr && o->enc_problem.len) /* a UTF-16/32 BOM on bytes that are not that (ec_tool_decoded) */
        why = ec_arena_printf(c->a, "cannot be read as text: %.*s", (int)o->enc_problem.len, o->enc_problem.ptr);
      if (!why.ptr) {
        /* read_text_file's form: a file that is not UTF-8 shown with U+FFFD after the line that says so */
        ec_str note, shown = ec_tool_shown(c, o, o->content, path, &note);
        if (!shown.ptr) return;
        ec_buf_append_cstr(&b, ":\n");
        if (note.len) ec_buf_printf(&b, "[%.*s]\n", (int)note.len, note.ptr);
        ec_buf_append_line(&b, shown);
        continue;
      }
    }
    ec_buf_append_cstr(&b, ": Error - ");
    ec_buf_append_str(&b, why);
  }
  ec_str text = ec_buf_finish(&b, c->a);
  if (!text.ptr) { c->oom = true; return; }
  mcp_text(c, text, false);
  c->done = true;
}

const ec_tool ec_tool_mcp_read_multiple_files = {"mcp/read_multiple_files", multi_plan, multi_run, mcp_fail, true};

/* Section - get_file_info */

/* A time as JavaScript's Date.prototype.toString prints it: "Fri Nov 27 2026 10:08:19 GMT+0000
 * (Coordinated Universal Time)", in the zone the host reported for that moment. */
static void js_date(ec_buf *b, const ec_obs_time *t) {
  static const char *const DAYS[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char *const MONTHS[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  if (!(t->ms >= -8.64e15 && t->ms <= 8.64e15)) { ec_buf_append_cstr(b, "Invalid Date"); return; }
  double local_ms = floor(t->ms) + t->offset_min * 60000.0;
  long long secs = (long long)floor(local_ms / 1000.0), days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
  long long sod = secs - days * 86400;
  /* Civil date from days since 1970-01-01 (Howard Hinnant's algorithm). */
  long long z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
  long long doe = z - era * 146097, yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  long long y = yoe + era * 400, doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
  long long d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) y++;
  int wd = (int)(((days % 7) + 11) % 7); /* 1970-01-01 was a Thursday */
  long long off = (long long)t->offset_min, aoff = off < 0 ? -off : off;
  ec_buf_printf(b, "%s %s %02lld %s%04lld %02lld:%02lld:%02lld GMT%c%02lld%02lld", DAYS[wd], MONTHS[m - 1], d, y < 0 ? "-" : "",
                y < 0 ? -y : y, sod / 3600, sod / 60 % 60, sod % 60, off < 0 ? '-' : '+', aoff / 60, aoff % 60);
  if (t->zone.len) ec_buf_printf(b, " (%.*s)", (int)t->zone.len, t->zone.ptr);
}

static void info_plan(ec_tool_call *c) {
  ec_str abs;
  mcp_path_args(c, &ec_tool_mcp_get_file_info, PATH_ONLY, MCP_READ_KIND, &abs);
}

static void info_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_get_file_info;
  ec_str abs;
  if (!mcp_path_args(c, t, PATH_ONLY, MCP_READ_KIND, &abs)) return;
  const ec_obs *o = mcp_observed(c, t, abs, "stat", NULL);
  if (!o) return;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(c->a));
  ec_buf_printf(&b, "size: %.0f", o->size >= 0 ? o->size : 0);
  static const char *const NAMES[] = {"created", "modified", "accessed"};
  for (int k = 0; k < 3; k++) {
    ec_buf_printf(&b, "\n%s: ", NAMES[k]);
    js_date(&b, &o->times[k]);
  }
  /* mode.toString(8).slice(-3): the last three octal digits */
  char octal[32];
  snprintf(octal, sizeof octal, "%llo", (unsigned long long)(o->mode >= 0 ? o->mode : 0));
  size_t n = strlen(octal);
  ec_buf_printf(&b, "\nisDirectory: %s\nisFile: %s\npermissions: %s", o->kind == EC_OBS_DIRECTORY ? "true" : "false",
                o->kind == EC_OBS_FILE ? "true" : "false", octal + (n > 3 ? n - 3 : 0));
  ec_str text = ec_buf_finish(&b, c->a);
  if (!text.ptr) { c->oom = true; return; }
  mcp_text(c, text, false);
  c->done = true;
}

const ec_tool ec_tool_mcp_get_file_info = {"mcp/get_file_info", info_plan, info_run, mcp_fail, true};
