/* The current user name, as Python's getpass.getuser() finds it for nvitop and nvisel. */
#include "cmd/nvitop/cli/login_name.h"

#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/array.h"
#include "util/xalloc.h"

char *cli_login_name(void) {
    static const char *const names[] = {"LOGNAME", "USER", "LNAME", "USERNAME"};
    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        const char *value = getenv(names[i]);
        if (value != NULL && value[0] != '\0') {
            return xstrdup(value);
        }
    }
    const struct passwd *pw = getpwuid(getuid());
    return xstrdup(pw != NULL && pw->pw_name != NULL ? pw->pw_name : "");
}
