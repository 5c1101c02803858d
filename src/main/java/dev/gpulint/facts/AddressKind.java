package dev.gpulint.facts;

/** What a main-process address as written is ({@link MachinesFact#getAddressKind()}): LOOPBACK, UNSPECIFIED, NUMBER, HOST or NONE. */
public enum AddressKind {
    /** 127.0.0.0/8, ::1, localhost: on each machine it names that machine itself. */
    LOOPBACK,
    /** 0.0.0.0 or ::: a server listens on it, no other machine can connect to it. */
    UNSPECIFIED,
    /** A bare number, no address. */
    NUMBER,
    /** Anything else: an address or a host name. */
    HOST,
    /** No address is stated. */
    NONE
}
