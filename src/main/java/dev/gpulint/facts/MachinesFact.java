package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A launch configuration that names its machines and its processes (Hugging Face accelerate:
 * {@code num_machines}, {@code num_processes} = the total over all machines, {@code main_process_ip}),
 * with the address classified and, when the job runs on a known node group, that group's GPUs per
 * node.
 */
public final class MachinesFact {
    private final String job, format;
    private final long machines, processes, groupGpus;
    private final Span machinesSpan, processesSpan, addressSpan, groupSpan;
    private final String machinesWhere, processesWhere, address, groupName;
    private final AddressKind addressKind;

    public MachinesFact(String job, String format, long machines, Span machinesSpan, String machinesWhere, long processes,
                        Span processesSpan, String processesWhere, String address, Span addressSpan, AddressKind addressKind,
                        long groupGpus, String groupName, Span groupSpan) {
        this.job = job; this.format = format; this.machines = machines; this.machinesSpan = machinesSpan;
        this.machinesWhere = machinesWhere; this.processes = processes; this.processesSpan = processesSpan;
        this.processesWhere = processesWhere; this.address = address; this.addressSpan = addressSpan;
        this.addressKind = addressKind; this.groupGpus = groupGpus; this.groupName = groupName; this.groupSpan = groupSpan;
    }

    /** The job's name. */
    public String getJob() { return job; }
    /** The format the job was read from ("accelerate"). */
    public String getFormat() { return format; }
    /** Machines (nodes) the configuration names; -1 when not stated. */
    public long getMachines() { return machines; }
    /** Where the machine count is written; null when not stated. */
    public Span getMachinesSpan() { return machinesSpan; }
    /** The machine count's key, in the format's words ("num_machines"). */
    public String getMachinesWhere() { return machinesWhere; }
    /** Processes of the whole job (all machines); -1 when not stated. */
    public long getProcesses() { return processes; }
    /** Where the process count is written; null when not stated. */
    public Span getProcessesSpan() { return processesSpan; }
    /** The process count's key, in the format's words ("num_processes"). */
    public String getProcessesWhere() { return processesWhere; }
    /** Processes per machine as the launcher starts them: processes ÷ machines, rounded down; -1 when either is unknown. */
    public long getProcessesPerMachine() { return machines > 0 && processes >= 0 ? processes / machines : -1; }
    /** Processes the launcher starts in all: machines × processes per machine; -1 when either is unknown. */
    public long getProcessesStarted() { return machines > 0 && processes >= 0 ? Sizes.product(machines, processes / machines) : -1; }
    /** The main process's address as written; null when not stated. */
    public String getAddress() { return address; }
    /** Where the address is written; null when not stated. */
    public Span getAddressSpan() { return addressSpan; }
    /**
     * What the address is: LOOPBACK (127.0.0.0/8, ::1, localhost), UNSPECIFIED (0.0.0.0, ::),
     * NUMBER (a bare number, no address), HOST (anything else: an address or a host name), or NONE
     * when not stated.
     */
    public AddressKind getAddressKind() { return addressKind; }
    /** GPUs per node of the node group the job runs on; -1 when no group is known. */
    public long getGroupGpus() { return groupGpus; }
    /** The node group the job runs on; null when none is known. */
    public String getGroupName() { return groupName; }
    /** Where the node group's GPU count is written; null when none is known. */
    public Span getGroupSpan() { return groupSpan; }
    /** machines × the node group's GPUs per node; -1 when either is unknown. */
    public long getGroupTotal() { return machines > 0 && groupGpus > 0 ? Sizes.product(machines, groupGpus) : -1; }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "job:" + job + "/machines"; }

    @Override public String toString() {
        return "MachinesFact[" + job + " machines=" + machines + " processes=" + processes + " address=" + address + " (" + addressKind + ")]";
    }
}
