/* A Zillions plug-in that answers every search with an illegal move (a pawn three squares ahead
 * from e2, whatever the position): the host must refuse it and forfeit, never pass it on. */
#include <string.h>

#include "zillions_engine.h"

DLL_Result ZCALL DLL_StartNewGame(const char *variant) { return variant ? DLL_OK_DONT_SEND_SETUP : DLL_GENERIC_ERROR; }
DLL_Result ZCALL DLL_MakeAMove(const char *move) { return move ? DLL_OK : DLL_GENERIC_ERROR; }
DLL_Result ZCALL DLL_Search(long lSearchTime, long lDepthLimit, long lVariety, Search_Status *pSearchStatus,
                            char *bestMove, char *currentMove, long *plNodes, long *plScore, long *plDepth) {
    (void)lSearchTime, (void)lDepthLimit, (void)lVariety, (void)pSearchStatus, (void)currentMove;
    strcpy(bestMove, "Pawn e2 - e5");
    *plNodes = 1;
    *plScore = 0;
    *plDepth = 1;
    return DLL_OK;
}
DLL_Result ZCALL DLL_CleanUp(void) { return DLL_OK; }
