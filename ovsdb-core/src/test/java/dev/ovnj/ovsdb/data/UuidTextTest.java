package dev.ovnj.ovsdb.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class UuidTextTest {

    @Test
    void readsTheCanonicalFormInEitherCase() {
        String text = "9a3f1c22-5f0e-4c7b-9d59-2b8a1e0c7d41";
        assertThat(UuidText.parse(text)).isEqualTo(UUID.fromString(text));
        assertThat(UuidText.parse(text.toUpperCase())).isEqualTo(UUID.fromString(text));
        assertThat(UuidText.parse("ffffffff-ffff-ffff-ffff-ffffffffffff")).isEqualTo(new UUID(-1L, -1L));
        assertThat(UuidText.parse("00000000-0000-0000-0000-000000000000")).isEqualTo(new UUID(0L, 0L));
    }

    @Test
    void rejectsWhatRfc7047DoesNotAllow() {
        assertThat(UuidText.parse(null)).isNull();
        assertThat(UuidText.parse("1-1-1-1-1")).isNull(); // UUID.fromString accepts this one
        assertThat(UuidText.parse("9a3f1c22-5f0e-4c7b-9d59-2b8a1e0c7d4")).isNull();
        assertThat(UuidText.parse("9a3f1c22-5f0e-4c7b-9d59-2b8a1e0c7d411")).isNull();
        assertThat(UuidText.parse("9a3f1c225-f0e-4c7b-9d59-2b8a1e0c7d41")).isNull();
        assertThat(UuidText.parse("9a3f1c22-5f0e-4c7b-9d59-2b8a1e0c7d4g")).isNull();
        assertThat(UuidText.parse("+a3f1c22-5f0e-4c7b-9d59-2b8a1e0c7d41")).isNull();
        // A non-ASCII digit, which Character.digit would take for 1.
        assertThat(UuidText.parse("\u0661a3f1c22-5f0e-4c7b-9d59-2b8a1e0c7d41")).isNull();
    }

    @Test
    void theHalvesAndTheCheckAgreeWithParse() {
        java.util.Random random = new java.util.Random(5);
        for (int i = 0; i < 1_000; i++) {
            UUID uuid = new UUID(random.nextLong(), random.nextLong());
            String text = i % 2 == 0 ? uuid.toString() : uuid.toString().toUpperCase();
            assertThat(UuidText.isCanonical(text)).isTrue();
            assertThat(UuidText.mostSignificantBits(text)).isEqualTo(uuid.getMostSignificantBits());
            assertThat(UuidText.leastSignificantBits(text)).isEqualTo(uuid.getLeastSignificantBits());
            assertThat(UuidText.parse(text)).isEqualTo(uuid);
        }
        assertThat(UuidText.isCanonical("9a3f1c22-5f0e-4c7b-9d59-2b8a1e0c7d4g")).isFalse();
        assertThat(UuidText.isCanonical("1-1-1-1-1")).isFalse();
        assertThat(UuidText.isCanonical(null)).isFalse();
    }
}
