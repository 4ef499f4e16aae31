package dev.ovnj.ovsdb.data;

import java.util.UUID;

/**
 * Reads the canonical textual form of a UUID ({@code 8-4-4-4-12} hex digits), the only form
 * RFC 7047 allows. Every row of a monitor reply carries several UUIDs, so this is a plain scan:
 * no regular expression, and no second pass as in {@link UUID#fromString(String)} (which also
 * accepts abbreviated forms such as {@code 1-1-1-1-1} that OVSDB does not).
 */
public final class UuidText {

    private UuidText() {
    }

    /**
     * Parses a UUID written in canonical form, either case.
     *
     * @param text the text, may be {@code null}
     * @return the UUID, or {@code null} if the text is not a canonical UUID
     */
    public static UUID parse(String text) {
        if (text == null || text.length() != 36 || text.charAt(8) != '-' || text.charAt(13) != '-'
                || text.charAt(18) != '-' || text.charAt(23) != '-') {
            return null;
        }
        long msb = 0;
        long lsb = 0;
        for (int i = 0; i < 36; i++) {
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                continue;
            }
            int digit = Character.digit(text.charAt(i), 16);
            if (digit < 0 || text.charAt(i) > 'f') {
                // Character.digit also accepts non-ASCII digits; the grammar does not.
                return null;
            }
            if (i < 18) {
                msb = (msb << 4) | digit;
            } else {
                lsb = (lsb << 4) | digit;
            }
        }
        return new UUID(msb, lsb);
    }
}
