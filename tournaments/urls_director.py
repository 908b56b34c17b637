"""Director URLs: every view here requires a director login."""

from django.urls import path

from tournaments import views_director as v
from tournaments import views_organiser
from tournaments.registration import views as register_views
from tournaments.registration import views_import

app_name = "tournaments_director"
urlpatterns = [
    path("tournaments/new/", v.TournamentCreateView.as_view(), name="create"),
    path("t/<int:pk>/edit/", v.TournamentUpdateView.as_view(), name="edit"),
    path("t/<int:pk>/players/", register_views.RegistrationsView.as_view(), name="registrations"),
    path("t/<int:pk>/players/<int:reg>/withdraw/", register_views.WithdrawView.as_view(), name="withdraw"),
    path("t/<int:pk>/players/<int:reg>/remove/", register_views.RemoveRegistrationView.as_view(), name="remove_registration"),
    path("t/<int:pk>/players/register/", register_views.RegisterPlayerView.as_view(), name="register_player"),
    path("t/<int:pk>/players/import/", views_import.ImportPlayersView.as_view(), name="import_players"),
    path("t/<int:pk>/draw/", v.DrawRoundView.as_view(), name="draw"),
    path("t/<int:pk>/rounds/delete-last/", v.DeleteLastRoundView.as_view(), name="delete_last_round"),
    path("t/<int:pk>/lots/", v.LotsView.as_view(), name="lots"),
    path("t/<int:pk>/round/<int:number>/swap/", v.SwapView.as_view(), name="swap"),
    path("t/<int:pk>/round/<int:number>/substitute/", v.SubstituteView.as_view(), name="substitute"),
    path("t/<int:pk>/round/<int:number>/redraw/", v.RedrawView.as_view(), name="redraw"),
    path("t/<int:pk>/roles/", views_organiser.RolesView.as_view(), name="roles"),
    path("t/<int:pk>/roles/remove/", views_organiser.RemoveRoleView.as_view(), name="remove_role"),
    path("t/<int:pk>/log/", views_organiser.ActionLogView.as_view(), name="action_log"),
    path("players/", register_views.PlayerListView.as_view(), name="players"),
    path("players/new/", register_views.PlayerCreateView.as_view(), name="player_create"),
    path("players/<int:pk>/edit/", register_views.PlayerUpdateView.as_view(), name="player_edit"),
    path("players/merge/", register_views.MergePlayersView.as_view(), name="merge_players"),
]
