package dev.gpulint.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The units of docs/format.md, "Quantities", each checked against its value in bytes per second or bytes. */
class QuantitiesTest {

    @ParameterizedTest
    @CsvSource({
            "400 Gb/s, 50e9, true", "400Gb/s, 50e9, true", "400 Gbps, 50e9, true", "400 gbps, 50e9, true",
            "400 Gbit/s, 50e9, true", "0.4 Tb/s, 50e9, true", "400000 Mbps, 50e9, true", "25 Kb/s, 3125, true",
            "8 b/s, 1, true", "50 GB/s, 50e9, false", "50GBps, 50e9, false", "3.35 TB/s, 3.35e12, false",
            "1 GiB/s, 1073741824, false", "1 MiB/s, 1048576, false", "2 TiB/s, 2199023255552, false",
            "1_000 MB/s, 1e9, false", "1e3 MB/s, 1e9, false", "5 B/s, 5, false"})
    void bandwidthUnits(String text, double bytesPerSecond, boolean bits) {
        Quantities.Parsed<Bandwidth> p = Quantities.bandwidth(text);
        assertTrue(p.ok(), p.problem());
        assertEquals(bytesPerSecond, p.value().bytesPerSecond(), bytesPerSecond * 1e-12);
        assertEquals(bits, p.value().bits());
    }

    @ParameterizedTest
    @CsvSource({"900", "400G", "400 gig", "80 GB", "400 Gb", "10 furlongs/s"})
    void ambiguousOrMissingBandwidthUnitsAreUnitProblems(String text) {
        Quantities.Parsed<Bandwidth> p = Quantities.bandwidth(text);
        assertFalse(p.ok());
        assertTrue(p.unitProblem(), text);
    }

    /** The readings UNIT003's fix chooses from: the number as written, with the units the message offers. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "900|900 Gb/s;900 GB/s", "400G|400 Gb/s;400 GB/s", "400 gig|400 Gb/s;400 GB/s", "1_000|1_000 Gb/s;1_000 GB/s",
            "900 GB|900 GB/s;900 Gb/s", "64 MiB|64 MiB/s;64 Mib/s", "400 Gbit|400 Gb/s", "50 GB/sec|50 GB/s",
            "400T|", "10 furlongs/s|", "400 Gb/s|", "fast|", "1e400|"})
    void unitReadingsAreTheOnesTheMessageOffers(String text, String readings) {
        assertEquals(readings == null ? java.util.List.of() : java.util.List.of(readings.split(";")), Quantities.unitReadings(text));
    }

    @Test
    void notANumberIsATypeProblem() {
        Quantities.Parsed<Bandwidth> p = Quantities.bandwidth("fast");
        assertFalse(p.ok());
        assertFalse(p.unitProblem());
    }

    @ParameterizedTest
    @CsvSource({"80 GB, 80e9", "80 GiB, 85899345920", "141GB, 141e9", "1 KiB, 1024", "2 TB, 2e12", "512 B, 512"})
    void sizes(String text, double bytes) {
        assertEquals(bytes, Quantities.size(text).value().bytes(), 1e-3);
    }

    @ParameterizedTest
    @CsvSource({"70B, 70e9", "8e9, 8e9", "1_024, 1024", "7.2B, 7.2e9", "1.5T, 1.5e12", "10K, 1e4", "3M, 3e6", "8, 8"})
    void counts(String text, double value) {
        assertEquals(value, Quantities.count(text).value(), value * 1e-12);
    }

    @ParameterizedTest
    @CsvSource({"2.5 s, 2.5", "800ms, 0.8", "1 min, 60"})
    void durations(String text, double seconds) {
        assertEquals(seconds, Quantities.duration(text).value(), 1e-9);
    }

    @Test
    void integers() {
        assertEquals(1024L, Quantities.integer("1_024").value());
        assertEquals(1000L, Quantities.integer("1e3").value());
        assertEquals(-1L, Quantities.integer("-1").value());
        assertFalse(Quantities.integer("1.5").ok());
        assertFalse(Quantities.integer("8 GPUs").ok());
        assertFalse(Quantities.integer("99999999999999999999").ok());
        // plain digits take a path without the pattern: the same values, leading zeros and 18 digits included
        assertEquals(123L, Quantities.integer("0123").value());
        assertEquals(999_999_999_999_999_999L, Quantities.integer("999999999999999999").value());
        assertEquals(9_223_372_036_854_775_807L, Quantities.integer("9223372036854775807").value());
        assertFalse(Quantities.integer("9223372036854775808").ok());
        assertEquals(8.0, Quantities.count("8").value());
        assertEquals(8.0, Quantities.count("08").value());
    }

    @Test
    void readingsInTheOtherBase() {
        Bandwidth b = Quantities.bandwidth("400 GB/s").value();
        assertEquals("3200 Gb/s", b.otherReading());
        assertEquals("50 GB/s", Quantities.bandwidth("400 Gb/s").value().otherReading());
        assertEquals("3.125", Quantities.format(3.125));
        assertEquals("8.96", Quantities.format2(8.96));
    }
}
