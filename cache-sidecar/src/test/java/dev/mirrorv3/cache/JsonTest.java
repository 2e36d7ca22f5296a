package dev.mirrorv3.cache;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The hot path's JSON strings: the quote, the backslash and the control characters escaped, everything else as is. */
class JsonTest {

    @Test
    void escapesTheQuoteTheBackslashAndTheControlCharacters() {
        String s = Json.appendString(new StringBuilder(), "a\"b\\c\nd\re\tf\u0001g\u001f\u007f é ✓ ]").toString();

        assertThat(s).isEqualTo("\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u001f\u007f é ✓ ]\"");
    }

    @Test
    void anEmptyStringIsTwoQuotes() {
        assertThat(Json.appendString(new StringBuilder("x"), "").toString()).isEqualTo("x\"\"");
    }
}
