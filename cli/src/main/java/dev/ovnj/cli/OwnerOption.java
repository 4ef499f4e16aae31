package dev.ovnj.cli;

import java.util.Optional;
import picocli.CommandLine.Option;

/** The {@code --owner} option, one definition for every command that reads or writes by owner. */
final class OwnerOption {

    @Option(names = "--owner", paramLabel = "NAME",
            description = "The owner (external_ids:ovnj.owner) whose load balancers to read or write; overrides the file's owner"
                    + " (default: the file's; without a file, every owner's; kubernetes: ovnj-kubernetes).")
    private String owner;

    /**
     * The owner as given.
     *
     * @return the owner, or empty when not given
     */
    Optional<String> name() {
        return Optional.ofNullable(owner).filter(o -> !o.isBlank());
    }

    /**
     * The owner to act as: the option, else the file's owner (when there is a file).
     *
     * @param state the desired state, or null without a file
     * @return the owner, or null for every owner
     */
    String or(DesiredState state) {
        return state == null ? name().orElse(null) : state.ownerOr(name().orElse(null));
    }
}
