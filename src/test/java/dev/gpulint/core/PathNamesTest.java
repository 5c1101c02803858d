package dev.gpulint.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** File names that are not UTF-8: shown with \xNN escapes, and taken back from them. */
class PathNamesTest {

    @Test
    void bytesThatAreNotUtf8AreWrittenAsHexEscapesAndTheRestAsText() {
        assertEquals("j\\xffob.yaml", PathNames.decode(new byte[] {'j', (byte) 0xff, 'o', 'b', '.', 'y', 'a', 'm', 'l'}));
        assertEquals("caf\u00e9.yaml", PathNames.decode("caf\u00e9.yaml".getBytes(StandardCharsets.UTF_8)));
        // a cut multi-byte sequence: its lead byte is escaped, the ASCII after it stays
        assertEquals("a\\xc3b", PathNames.decode(new byte[] {'a', (byte) 0xc3, 'b'}));
        // Latin-1 é (0xe9) before ASCII
        assertEquals("caf\\xe9", PathNames.decode(new byte[] {'c', 'a', 'f', (byte) 0xe9}));
    }

    @Test
    void theEscapesTurnBackIntoTheBytes() {
        byte[] name = {'d', '/', (byte) 0xff, (byte) 0xfe, 'x', (byte) 0xc3, (byte) 0xa9};
        assertEquals("d/\\xff\\xfex\u00e9", PathNames.decode(name));
        assertArrayEquals(name, PathNames.unescape(PathNames.decode(name)));
    }

    @Test
    void argumentsJavaDecodedWithLossGetTheirBytesBackFromTheCommandLine() {
        byte[] cmdline = "java\0-jar\0g.jar\0-f\0j\u00ffob.yaml\0".getBytes(StandardCharsets.ISO_8859_1);
        String[] lossy = {"-f", "j\uFFFDob.yaml"};
        assertArrayEquals(new String[] {"-f", "j\\xffob.yaml"}, PathNames.args(lossy, cmdline, StandardCharsets.UTF_8));
        // a command line that is not this one's (an argument file, another order): the arguments as Java gave them
        String[] other = {"-f", "k\uFFFDob.yaml"};
        assertSame(other, PathNames.args(other, cmdline, StandardCharsets.UTF_8));
        String[] clean = {"samples/"};
        assertSame(clean, PathNames.args(clean, cmdline, StandardCharsets.UTF_8));
    }

    @Test
    void anOrdinaryNameIsShownAsJavaShowsIt() {
        assertEquals("samples/broken/tp16-job.yaml", PathNames.shown(Path.of("samples/broken/tp16-job.yaml")));
    }
}
