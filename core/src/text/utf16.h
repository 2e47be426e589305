/*
 * UTF-16 with a byte-order mark, exactly: the bytes after the BOM decoded to UTF-8 (an odd length
 * or an unpaired surrogate is EC_ENCODING with *problem saying which), and UTF-8 encoded back
 * with the BOM. Used through ec_text_decode / ec_text_encode (encoding.h); a file of its own so
 * the browser's first module (editcore-lite.wasm) can leave it to the full one.
 */
#ifndef EC_TEXT_UTF16_H
#define EC_TEXT_UTF16_H
#include "../base/arena.h"

/** bytes (BOM included) -> UTF-8 text (BOM dropped). */
ec_error_code ec_utf16_decode(ec_arena *a, ec_str bytes, bool be, ec_str *text, ec_str *problem);
/** UTF-8 text -> bytes with the BOM; EC_ENCODING when the text is not UTF-8. */
ec_error_code ec_utf16_encode(ec_arena *a, ec_str text, bool be, ec_str *bytes);

#endif
