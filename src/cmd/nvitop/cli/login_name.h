/* The user name the programs' options default to (nvitop's and nvisel's --user). */
#ifndef NVITOP_SRC_CMD_NVITOP_CLI_LOGIN_NAME_H
#define NVITOP_SRC_CMD_NVITOP_CLI_LOGIN_NAME_H

/* The current user name as nvitop finds it (getpass.getuser()): $LOGNAME, $USER, $LNAME,
 * $USERNAME, then the password database.  Returns a malloc'd string ("" when unknown); aborts when
 * out of memory (util/xalloc.h). */
char *cli_login_name(void);

#endif /* NVITOP_SRC_CMD_NVITOP_CLI_LOGIN_NAME_H */
