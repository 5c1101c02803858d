package dev.gpulint.spec;

/** A size as written, and its value in bytes. */
public record DataSize(double number, String unit, double bytes) {
    public String written() { return Quantities.format(number) + " " + unit; }
    @Override public String toString() { return written(); }
}
