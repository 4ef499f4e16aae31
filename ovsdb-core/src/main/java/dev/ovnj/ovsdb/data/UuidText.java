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
        if (!hasDashes(text)) {
            return null;
        }
        // One pass: the halves are accumulated while the digits are checked.
        long msb = 0;
        long lsb = 0;
        for (int i = 0; i < 36; i++) {
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                continue;
            }
            int digit = digit(text.charAt(i));
            if (digit < 0) {
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

    private static boolean hasDashes(String text) {
        return text != null && text.length() == 36 && text.charAt(8) == '-' && text.charAt(13) == '-'
                && text.charAt(18) == '-' && text.charAt(23) == '-';
    }

    /**
     * Whether the text is a UUID in canonical form, either case.
     *
     * @param text the text, may be {@code null}
     * @return true if {@link #parse} would return a UUID
     */
    static boolean isCanonical(String text) {
        if (!hasDashes(text)) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            if (i != 8 && i != 13 && i != 18 && i != 23 && digit(text.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** The high 64 bits of a UUID that {@link #isCanonical} accepted: its first 16 hex digits. */
    static long mostSignificantBits(String text) {
        return hex(text, 0, 18);
    }

    /** The low 64 bits of a UUID that {@link #isCanonical} accepted: its last 16 hex digits. */
    static long leastSignificantBits(String text) {
        return hex(text, 19, 36);
    }

    private static long hex(String text, int from, int to) {
        long bits = 0;
        for (int i = from; i < to; i++) {
            int digit = digit(text.charAt(i));
            if (digit >= 0) {
                bits = (bits << 4) | digit;
            }
        }
        return bits;
    }

    // Character.digit also accepts non-ASCII digits; the grammar does not.
    private static int digit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
