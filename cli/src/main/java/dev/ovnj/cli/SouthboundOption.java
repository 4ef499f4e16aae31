package dev.ovnj.cli;

import java.util.Optional;
import picocli.CommandLine.Option;

/** The {@code --sb} option, one definition for every command that can read the Southbound database. */
final class SouthboundOption {

    @Option(names = "--sb", paramLabel = "REMOTES",
            description = "The OVN Southbound database, remotes as for --db (same TLS files): backend health from OVN's service"
                    + " monitor (status; reconcile --watch; kubernetes, in the Services' conditions) and doctor's Southbound"
                    + " checks. Without it those are left out.")
    private String remotes;

    /**
     * The Southbound remotes, when given.
     *
     * @return the remotes, or empty
     */
    Optional<String> remotes() {
        return Optional.ofNullable(remotes).filter(r -> !r.isBlank());
    }
}
