/* ssdlab config show | keys */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char show_help[] =
    "Usage: ssdlab config show [-d DRIVE] [-c FILE]... [--set KEY=VALUE]... [--no-origin]\n\n"
    "Prints the fully resolved configuration as YAML, each value followed by where\n"
    "it came from (default, FILE:LINE:COL, or --set). The output loads back as a\n"
    "config file with the same values.\n\n"
    "Options:\n" CLI_CONFIG_HELP
    "      --no-origin      leave out the origin comments\n"
    "  -h, --help           this help\n";

static const char keys_help[] =
    "Usage: ssdlab config keys [--markdown]\n\n"
    "Prints every configuration key: type, default unit, default, range, meaning.\n"
    "--markdown prints docs/config-reference.md.\n";

static int config_show(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_CONFIG_OPTIONS, {"no-origin", no_argument, NULL, OPT_NO_ORIGIN}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    cli_config_args args = {0};
    bool origin = true;
    int opt;
    while ((opt = getopt_long(argc, argv, "d:c:w:h", opts, NULL)) != -1) {
        if (cli_config_option(&args, opt, optarg)) continue;
        if (opt == OPT_NO_ORIGIN) origin = false;
        else if (opt == 'h') {
            fputs(show_help, stdout);
            cli_config_args_free(&args);
            return EXIT_OK;
        } else {
            cli_config_args_free(&args);
            return cli_usage_error("config show", "bad option");
        }
    }
    if (optind < argc) {
        cli_config_args_free(&args);
        return cli_usage_error("config show", "unexpected argument '%s'", argv[optind]);
    }
    cfg *c = cli_load_config(&args);
    cli_config_args_free(&args);
    if (!c) return EXIT_BAD_INPUT;
    printf("# ssdlab resolved configuration\n");
    cfg_write_yaml(c, stdout, origin);
    cfg_free(c);
    return EXIT_OK;
}

static int config_keys(int argc, char **argv)
{
    static const struct option opts[] = {
        {"markdown", no_argument, NULL, OPT_MARKDOWN}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    bool markdown = false;
    int opt;
    while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (opt == OPT_MARKDOWN) markdown = true;
        else if (opt == 'h') return fputs(keys_help, stdout), EXIT_OK;
        else return cli_usage_error("config keys", "bad option");
    }
    if (optind < argc) return cli_usage_error("config keys", "unexpected argument '%s'", argv[optind]);
    cfg_write_reference(ssdlab_schema(), stdout, markdown);
    return EXIT_OK;
}

int cmd_config(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs("Usage: ssdlab config show [options] | ssdlab config keys [--markdown]\n\n", argc < 2 ? stderr : stdout);
        fputs(show_help, argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_BAD_INPUT : EXIT_OK;
    }
    if (strcmp(argv[1], "show") == 0) return config_show(argc - 1, argv + 1);
    if (strcmp(argv[1], "keys") == 0) return config_keys(argc - 1, argv + 1);
    return cli_usage_error("config", "unknown subcommand '%s'; expected 'show' or 'keys'", argv[1]);
}
