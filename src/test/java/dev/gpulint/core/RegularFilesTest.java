package dev.gpulint.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import dev.gpulint.testing.CpuLimit;

class RegularFilesTest {

    @Test
    @CpuLimit(seconds = 60)   // a hang guard: Long.MAX_VALUE + 1 wrapped and the buffer never grew
    void aLimitBeyondAnArrayIsRefusedNotSpunOn() {
        assertThrows(IllegalArgumentException.class, () -> RegularFiles.read(new ByteArrayInputStream(new byte[20_000]), Long.MAX_VALUE));
        assertThrows(IllegalArgumentException.class, () -> RegularFiles.read(new ByteArrayInputStream(new byte[3]), -1));
    }

    @Test
    void readsUpToTheLimitExactlyAndRefusesOneByteMore() throws IOException {
        byte[] data = new byte[20_000];
        data[19_999] = 7;
        assertArrayEquals(data, RegularFiles.read(new ByteArrayInputStream(data), 20_000));
        assertThrows(RegularFiles.TooLarge.class, () -> RegularFiles.read(new ByteArrayInputStream(data), 19_999));
        assertArrayEquals(new byte[0], RegularFiles.read(new ByteArrayInputStream(new byte[0]), 0));
    }
}
